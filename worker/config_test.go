package worker

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestLoadConfig(t *testing.T) {
	base := map[string]string{
		"LLM_BASE_URL": "https://api.example/v1/",
		"LLM_MODEL":    "m",
		"LLM_API_KEY":  testAPIKey,
		"STATE_SECRET": testSecret,
	}
	tests := []struct {
		name    string
		edit    map[string]string
		setting string // "" means no error
	}{
		{"defaults", nil, ""},
		{"anthropic", map[string]string{"LLM_STYLE": "Anthropic"}, ""},
		{"bad style", map[string]string{"LLM_STYLE": "gemini"}, "LLM_STYLE"},
		{"bad url", map[string]string{"LLM_BASE_URL": "api.example"}, "LLM_BASE_URL"},
		{"short secret", map[string]string{"STATE_SECRET": "short"}, "STATE_SECRET"},
		{"missing model", map[string]string{"LLM_MODEL": " "}, "LLM_MODEL"},
		{"bad ttl", map[string]string{"STATE_TTL_SECONDS": "-1"}, "STATE_TTL_SECONDS"},
		{"bad max turns", map[string]string{"MAX_TURNS": "many"}, "MAX_TURNS"},
		{"bad body limit", map[string]string{"MAX_BODY_BYTES": "0"}, "MAX_BODY_BYTES"},
		{"no retries", map[string]string{"LLM_RETRIES": "0"}, ""},
		{"bad retries", map[string]string{"LLM_RETRIES": "-2"}, "LLM_RETRIES"},
		{"models", map[string]string{"MODELS": "big, m"}, ""},
		{"models without LLM_MODEL", map[string]string{"MODELS": "big,small"}, "MODELS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range base {
				env[k] = v
			}
			for k, v := range tt.edit {
				env[k] = v
			}
			c, err := LoadConfig(func(k string) string { return env[k] })
			if tt.setting == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			errs, ok := errors.AsType[ConfigErrors](err)
			if !ok || len(errs) != 1 || errs[0].Setting != tt.setting {
				t.Fatalf("err = %v, want one problem naming %s", err, tt.setting)
			}
			if strings.Contains(err.Error(), testSecret) || strings.Contains(err.Error(), testAPIKey) {
				t.Fatalf("error leaks a value: %v", err)
			}
			_ = c
		})
	}
	c, _ := LoadConfig(func(k string) string { return base[k] })
	if c.BaseURL != "https://api.example/v1" || c.Style != "openai" || c.StateTTL != time.Hour || c.MaxBodyBytes != DefaultMaxBodyBytes {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestLoadAccess(t *testing.T) {
	a := LoadAccess(func(k string) string {
		return map[string]string{"ALLOWED_ORIGINS": " https://a.example/ ,,https://b.example", "API_TOKEN": " t "}[k]
	})
	if a.APIToken != "t" || len(a.AllowedOrigins) != 2 || !a.originAllowed("https://a.example") || a.originAllowed("https://c.example") {
		t.Fatalf("access = %+v", a)
	}
}
