package worker

import "strings"

// UIStreamRoute is the routes key of every GET /v1/ui/<chat id>/stream,
// which worker/uiproto mounts (Handle). The router maps a path with an id
// to its route's key (routeKey), so that a product adds no code to find
// its route.
const UIStreamRoute = "/v1/ui/{id}/stream"

// routeKey is the routes key of path: itself, or the key of the route with
// an id in its path that path is one of.
func routeKey(path string) string {
	if rest, ok := strings.CutPrefix(path, "/v1/ui/"); ok && strings.HasSuffix(rest, "/stream") && len(rest) > len("/stream") {
		return UIStreamRoute
	}
	if key, ok := runsRouteKey(path); ok {
		return key
	}
	if strings.HasPrefix(path, "/approve/assets/") {
		return ApproveAssetRoute
	}
	return path
}
