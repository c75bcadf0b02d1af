package worker

import "strings"

// The durable runs' routes (worker/runs) whose paths have a variable part.
// They stay here because the router must map such a path to its key
// (routeKey) before it knows which product mounted it; runs.Mount mounts
// its handlers at these keys (Handle).
const (
	RunStateRoute     = "/v1/runs/{id}"
	RunEventsRoute    = "/v1/runs/{id}/events"
	RunDecisionsRoute = "/v1/runs/{id}/decisions"
	RunRevokeRoute    = "/v1/runs/{id}/revoke"
	ApproveAssetRoute = "/approve/assets/{name}"
)

// runsRouteKey maps /v1/runs/<id> and /v1/runs/<id>/events (decisions,
// revoke) to their route keys.
func runsRouteKey(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/v1/runs/")
	if !ok || rest == "" {
		return "", false
	}
	for _, r := range [...][2]string{{"/events", RunEventsRoute}, {"/decisions", RunDecisionsRoute}, {"/revoke", RunRevokeRoute}} {
		if id, ok := strings.CutSuffix(rest, r[0]); ok && id != "" && !strings.Contains(id, "/") {
			return r[1], true
		}
	}
	if !strings.Contains(rest, "/") {
		return RunStateRoute, true
	}
	return "", false
}
