// This module stands in for github.com/tidwall/pretty in this repository's
// builds (see the replace directive in ../../go.mod). gjson uses pretty only
// for its @pretty and @ugly path modifiers, and pretty calls
// encoding/json.Unmarshal, which alone links encoding/json — about 170 KB
// of gzipped wasm — into a build that otherwise does not need it.
module github.com/tidwall/pretty

go 1.21
