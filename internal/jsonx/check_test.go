package jsonx

import "testing"

func TestCheckText(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" is no error
	}{
		{"valid", `{"a":[1]}`, ""},
		{"invalid", `{"a":`, "p: reply is not valid JSON"},
		{"too deep", nested(MaxDepth + 1), "p: reply is refused: JSON nested more than 1000 levels deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := CheckText([]byte(tt.in), "p: ", "reply"); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("CheckText = %q, want %q", got, tt.want)
			}
		})
	}
}
