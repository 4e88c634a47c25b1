#pragma once
// The INSPIRE view-service part of WMS capabilities
// (msOWSPrintInspireCommonExtendedCapabilities): <inspire_vs:ExtendedCapabilities>
// with the metadata URL ("url" mode) or the embedded service metadata
// ("embed" mode), then the supported and response languages.

#include "wms/capabilities_writer.h"

namespace maptune {

extern const QString kInspireCommonNs;
extern const QString kInspireVsNs;

// Declares its namespaces on itself when `declareNamespaces` (WMS 1.1.1 has
// no root element to hold them).
void writeInspireExtendedCapabilities(CapabilitiesWriter& w, bool declareNamespaces);

}  // namespace maptune
