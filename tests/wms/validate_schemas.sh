#!/bin/sh
# CTest wms_schema_validation: the WMS 1.1.1 and 1.3.0 GetCapabilities and
# ServiceExceptionReports maptune-cli writes are valid against the official
# OGC DTDs / XML Schemas, checked offline (xmllint --nonet, the URLs mapped to
# tests/data/ogc-schemas through its XML catalog).
#
#   validate_schemas.sh MAPTUNE_CLI MAPTUNE_DEMO_DATA SOURCE_DIR WORK_DIR
set -u
cli=$1 demo=$2 src=$3 work=$4
schemas=$src/tests/data/ogc-schemas
export XML_CATALOG_FILES="$schemas/catalog.xml"
failures=0 checked=0

rm -rf "$work" && mkdir -p "$work" || exit 1
"$demo" "$work/demo" >/dev/null || { echo "maptune-demo-data failed"; exit 1; }

# validate NAME KIND FILE: KIND dtd (the document's own DOCTYPE, resolved via the
# catalog) or an .xsd under $schemas. Any message from xmllint is a failure,
# so an unresolved DTD or schema import cannot pass quietly.
validate() {
    name=$1 kind=$2 file=$3
    checked=$((checked + 1))
    if [ "$kind" = dtd ]; then
        xmllint --nonet --noout --valid "$file" >"$work/xmllint.out" 2>&1
    else
        xmllint --nonet --noout --schema "$schemas/$kind" "$file" >"$work/xmllint.out" 2>&1
    fi
    rc=$?
    if [ $rc -ne 0 ] || grep -v ' validates$' "$work/xmllint.out" | grep -q .; then
        echo "FAIL $name (xmllint exit $rc):"; head -20 "$work/xmllint.out"
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
}

# request NAME MAPFILE QUERY: the response body in $work/NAME.xml
request() {
    "$cli" request "$2" "$3" -o "$work/$1.xml" || { echo "FAIL $1: maptune-cli request exited $?"; failures=$((failures + 1)); }
}

caps="SERVICE=WMS&REQUEST=GetCapabilities&VERSION"
for map in "inline:$src/tests/data/wms/inline.map" "escaping:$src/tests/data/wms/escaping.map" \
           "dimensions:$src/tests/data/wms/dimensions.map" "demo:$work/demo/demo.map"; do
    tag=${map%%:*} path=${map#*:}
    request "$tag-caps111" "$path" "$caps=1.1.1" && validate "$tag capabilities 1.1.1" dtd "$work/$tag-caps111.xml"
    request "$tag-caps130" "$path" "$caps=1.3.0" && validate "$tag capabilities 1.3.0" wms_capabilities_1_3_0_all.xsd "$work/$tag-caps130.xml"
done

inline=$src/tests/data/wms/inline.map
bad='LAYERS=%3Cscript%3E%26%22%27%C3%A9&STYLES=&FORMAT=image/png&WIDTH=10&HEIGHT=10'
request exc111 "$inline" "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:4326&BBOX=0,0,1,1&$bad"
validate "exception 1.1.1 (LayerNotDefined)" dtd "$work/exc111.xml"
request exc110 "$inline" "SERVICE=WMS&VERSION=1.1.0&REQUEST=GetMap&SRS=EPSG:4326&BBOX=0,0,1,1&$bad"
validate "exception 1.1.0 (LayerNotDefined)" dtd "$work/exc110.xml"
request exc130 "$inline" "SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&CRS=EPSG:4326&BBOX=0,0,1,1&$bad"
validate "exception 1.3.0 (LayerNotDefined)" wms/1.3.0/exceptions_1_3_0.xsd "$work/exc130.xml"
request exc111time "$src/tests/data/wms/dimensions.map" "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:4326&BBOX=0,0,100,100&LAYERS=events&STYLES=&FORMAT=image/png&WIDTH=10&HEIGHT=10&TIME=1999-01-01"
validate "exception 1.1.1 (InvalidDimensionValue)" dtd "$work/exc111time.xml"
request exc130dim "$src/tests/data/wms/dimensions.map" "SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&CRS=CRS:84&BBOX=0,0,100,100&LAYERS=events&STYLES=&FORMAT=image/png&WIDTH=10&HEIGHT=10&ELEVATION=5000"
validate "exception 1.3.0 (InvalidDimensionValue)" wms/1.3.0/exceptions_1_3_0.xsd "$work/exc130dim.xml"
request exc130b "$inline" "SERVICE=WMS&VERSION=1.3.0&REQUEST=Get%3Cx%3EMap"
validate "exception 1.3.0 (unknown request)" wms/1.3.0/exceptions_1_3_0.xsd "$work/exc130b.xml"

# Every answer to the malformed-request corpus is a valid report of its version.
long=$(head -c 100000 /dev/zero | tr '\0' A)
i=0
grep -v '^#' "$src/tests/data/wms/malformed.txt" | grep . | cut -f1 | while IFS= read -r query; do
    i=$((i + 1))
    query=$(printf '%s' "$query" | sed "s/@LONG@/$long/")
    "$cli" request "$inline" "$query" -o "$work/malformed.xml" 2>/dev/null
    if grep -q 'xmlns="http://www.opengis.net/ogc"' "$work/malformed.xml"; then kind=wms/1.3.0/exceptions_1_3_0.xsd; else kind=dtd; fi
    validate "malformed #$i" "$kind" "$work/malformed.xml" >"$work/malformed.log"
    grep -q '^ok' "$work/malformed.log" || { cat "$work/malformed.log"; echo "  request: $(printf '%.200s' "$query")"; }
done >"$work/malformed-all.log"
malformed=$(grep -c . "$work/malformed-all.log")
if [ "$malformed" -ne 0 ]; then cat "$work/malformed-all.log"; failures=$((failures + 1)); fi
echo "ok   malformed-request corpus: $(grep -v '^#' "$src/tests/data/wms/malformed.txt" | grep -c .) reports checked"

# The checker must be able to fail: a capabilities document without the
# mandatory service Title, and an exception report with an undeclared element.
sed '0,/<Title>/{/<Title>/d}' "$work/inline-caps111.xml" >"$work/broken111.xml"
sed 's|</ServiceException>|<Bogus/></ServiceException>|' "$work/exc130.xml" >"$work/broken130.xml"
for f in "broken111:dtd" "broken130:wms/1.3.0/exceptions_1_3_0.xsd"; do
    if [ "${f#*:}" = dtd ]; then xmllint --nonet --noout --valid "$work/${f%%:*}.xml" 2>/dev/null
    else xmllint --nonet --noout --schema "$schemas/${f#*:}" "$work/${f%%:*}.xml" 2>/dev/null; fi
    if [ $? -eq 0 ]; then echo "FAIL ${f%%:*}: an invalid document validated"; failures=$((failures + 1)); else echo "ok   ${f%%:*} rejected"; fi
done

echo "$checked documents checked, $failures failures"
[ "$failures" -eq 0 ]
