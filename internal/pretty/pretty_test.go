package pretty

import "testing"

func TestUglyAndPretty(t *testing.T) {
	in := []byte(" { \"a\" : [ 1 , \"x y\\\" ]\" , { } ] , \"b\":{\"c\" :true} } ")
	if got := string(Ugly(in)); got != `{"a":[1,"x y\" ]",{}],"b":{"c":true}}` {
		t.Fatalf("Ugly = %s", got)
	}
	want := "{\n  \"a\": [\n    1,\n    \"x y\\\" ]\",\n    {}\n  ],\n  \"b\": {\n    \"c\": true\n  }\n}\n"
	if got := string(Pretty(in)); got != want {
		t.Fatalf("Pretty =\n%s\nwant\n%s", got, want)
	}
}
