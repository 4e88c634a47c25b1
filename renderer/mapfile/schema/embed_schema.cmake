# cmake -DOUT=file.cpp -DINPUTS="a.json;b.json" -P embed_schema.cmake
# Writes builtinSchemaDocuments() with each JSON file as a byte array, so that
# the schema ships inside the engine with no resource file to install.
set(body "#include \"mapfile/schema/keyword_schema_data.h\"\n\nnamespace maptune {\n\nnamespace {\n")
set(index 0)
set(list "")
foreach(input IN LISTS INPUTS)
  file(READ "${input}" hex HEX)
  string(LENGTH "${hex}" hexLength)
  math(EXPR bytes "${hexLength} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," hex "${hex}")
  string(APPEND body "const char kDocument${index}[] = {${hex}};\n")
  string(APPEND list "        QByteArray::fromRawData(kDocument${index}, ${bytes}),\n")
  math(EXPR index "${index} + 1")
endforeach()
string(APPEND body "\n}  // namespace\n\nQList<QByteArray> builtinSchemaDocuments()\n{\n    return {\n${list}    };\n}\n\n}  // namespace maptune\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
