package worker

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults for the optional settings.
const (
	DefaultStateTTL     = time.Hour
	DefaultMaxBodyBytes = 1 << 20
	// DefaultRunTimeout bounds one request's run (model calls, retries and
	// tools), so that a stalled provider cannot hold a request open for good.
	DefaultRunTimeout = 5 * time.Minute
	// minSecretLen is the shortest STATE_SECRET accepted: a 32-character
	// random string (for example `openssl rand -hex 16`) is a 128-bit key.
	minSecretLen = 32
)

// Access is the part of the configuration every route needs: who may call
// the API. It never fails to load; an unset API_TOKEN means no bearer is
// required and an unset ALLOWED_ORIGINS means no browser origin is allowed.
type Access struct {
	// APIToken, when set, is the bearer token /v1/* requires.
	APIToken string
	// AllowedOrigins lists the browser origins CORS lets in; "*" allows any.
	AllowedOrigins []string
}

// Config is what /v1/run and /v1/resume need, read from the Worker's
// environment (wrangler.jsonc "vars" and `wrangler secret put`):
//
//	LLM_BASE_URL       required  e.g. https://api.openai.com/v1
//	LLM_STYLE          optional  "openai" (default) or "anthropic"
//	LLM_MODEL          required  sent verbatim on every turn
//	MODELS             optional  comma-separated models a caller of the OpenAI
//	                             gateway may name (default: LLM_MODEL alone);
//	                             must list LLM_MODEL
//	LLM_API_KEY        required  secret; never logged or returned
//	STATE_SECRET       required  secret; at least 32 characters
//	STATE_TTL_SECONDS  optional  how long a pending run may wait (default 3600)
//	SYSTEM_PROMPT      optional
//	MAX_TURNS          optional  model turns per request (core's default when unset)
//	LLM_RETRIES        optional  retries of a failed model request (core's default
//	                             when unset; 0 never retries)
//	MAX_BODY_BYTES     optional  request body limit (default 1 MiB)
//	LLM_TIMEOUT_SECONDS optional bound on one request's run: model calls,
//	                             retries and tools (default 300); past it 504
type Config struct {
	Access
	BaseURL      string
	Style        string
	Model        string
	APIKey       string
	StateSecret  string
	StateTTL     time.Duration
	SystemPrompt string
	MaxTurns     int
	// Retries is passed to core as is: 0 means core's default, -1 never.
	Retries      int
	MaxBodyBytes int64
	// Timeout bounds one request's run (core's ClientOptions.TimeoutMs).
	Timeout time.Duration
}

// ConfigError names the setting that is missing or invalid. Its message
// never contains a setting's value.
type ConfigError struct {
	Setting string
	Problem string
}

func (e *ConfigError) Error() string { return e.Setting + " " + e.Problem }

// ConfigErrors is every problem of a configuration, in the order the
// settings are read, so that one answer (or one log line) names them all.
type ConfigErrors []*ConfigError

func (e ConfigErrors) Error() string {
	msgs := make([]string, len(e))
	for i, ce := range e {
		msgs[i] = ce.Error()
	}
	return strings.Join(msgs, "; ")
}

// add appends the problems of err, a *ConfigError or a ConfigErrors (nil
// adds nothing).
func (e *ConfigErrors) add(err error) {
	switch v := err.(type) {
	case nil:
	case *ConfigError:
		*e = append(*e, v)
	case ConfigErrors:
		*e = append(*e, v...)
	default:
		*e = append(*e, &ConfigError{"configuration", "could not be read"})
	}
}

// err returns e as an error, or nil when it holds no problem.
func (e ConfigErrors) err() error {
	if len(e) == 0 {
		return nil
	}
	return e
}

// LoadAccess reads API_TOKEN and ALLOWED_ORIGINS.
func LoadAccess(getenv func(string) string) Access {
	a := Access{APIToken: strings.TrimSpace(getenv("API_TOKEN"))}
	for _, o := range strings.Split(getenv("ALLOWED_ORIGINS"), ",") {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o != "" {
			a.AllowedOrigins = append(a.AllowedOrigins, o)
		}
	}
	return a
}

// MaxBody reads MAX_BODY_BYTES on its own, so that a body limit applies even
// to requests that fail for another configuration problem.
func MaxBody(getenv func(string) string) (int64, error) {
	n, err := positiveInt(getenv, "MAX_BODY_BYTES", DefaultMaxBodyBytes)
	return int64(n), err
}

// LoadConfig reads the full configuration. The error, when there is one,
// is a ConfigErrors naming every missing or invalid setting at once.
func LoadConfig(getenv func(string) string) (Config, error) {
	c := Config{Access: LoadAccess(getenv)}
	var problems ConfigErrors
	required := []struct {
		name string
		dst  *string
	}{
		{"LLM_BASE_URL", &c.BaseURL},
		{"LLM_MODEL", &c.Model},
		{"LLM_API_KEY", &c.APIKey},
		{"STATE_SECRET", &c.StateSecret},
	}
	for _, r := range required {
		if *r.dst = strings.TrimSpace(getenv(r.name)); *r.dst == "" {
			problems.add(&ConfigError{r.name, "is not set"})
		}
	}
	if c.BaseURL != "" && !strings.HasPrefix(c.BaseURL, "http://") && !strings.HasPrefix(c.BaseURL, "https://") {
		problems.add(&ConfigError{"LLM_BASE_URL", "must start with http:// or https://"})
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.StateSecret != "" && len(c.StateSecret) < minSecretLen {
		problems.add(&ConfigError{"STATE_SECRET", fmt.Sprintf("must be at least %d characters", minSecretLen)})
	}
	switch c.Style = strings.ToLower(strings.TrimSpace(getenv("LLM_STYLE"))); c.Style {
	case "":
		c.Style = "openai"
	case "openai", "anthropic":
	default:
		problems.add(&ConfigError{"LLM_STYLE", `must be "openai" or "anthropic"`})
	}
	ttl, err := positiveInt(getenv, "STATE_TTL_SECONDS", int(DefaultStateTTL/time.Second))
	problems.add(err)
	c.StateTTL = time.Duration(ttl) * time.Second
	c.MaxTurns, err = positiveInt(getenv, "MAX_TURNS", 0)
	problems.add(err)
	c.Retries, err = retries(getenv)
	problems.add(err)
	c.MaxBodyBytes, err = MaxBody(getenv)
	problems.add(err)
	timeout, err := positiveInt(getenv, "LLM_TIMEOUT_SECONDS", int(DefaultRunTimeout/time.Second))
	problems.add(err)
	c.Timeout = time.Duration(timeout) * time.Second
	c.SystemPrompt = getenv("SYSTEM_PROMPT")
	_, err = Models(getenv, c.Model)
	problems.add(err)
	if err := problems.err(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// positiveInt reads an optional positive integer setting.
func positiveInt(getenv func(string) string, name string, def int) (int, error) {
	s := strings.TrimSpace(getenv(name))
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, &ConfigError{name, "must be a positive integer"}
	}
	return n, nil
}

// retries reads LLM_RETRIES into core's convention (0 default, -1 never).
func retries(getenv func(string) string) (int, error) {
	s := strings.TrimSpace(getenv("LLM_RETRIES"))
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, &ConfigError{"LLM_RETRIES", "must be a non-negative integer"}
	}
	if n == 0 {
		return -1, nil
	}
	return n, nil
}

// Models reads MODELS, the models the OpenAI gateway serves: it calls the
// provider with the Worker's key, so a caller may name no other. The
// comma-separated list must name def (LLM_MODEL, what a request naming no
// model gets); unset, it is def alone. LoadConfig checks it; it is not a
// field of Config, which is copied by value on every route (a slice field
// there costs the wasm ~4 kB).
func Models(getenv func(string) string, def string) ([]string, error) {
	var list []string
	for _, m := range strings.Split(getenv("MODELS"), ",") {
		if m = strings.TrimSpace(m); m != "" && !slices.Contains(list, m) {
			list = append(list, m)
		}
	}
	if len(list) == 0 {
		return []string{def}, nil
	}
	if def != "" && !slices.Contains(list, def) {
		return nil, &ConfigError{"MODELS", "must list LLM_MODEL (the model a request that names none gets)"}
	}
	return list, nil
}
