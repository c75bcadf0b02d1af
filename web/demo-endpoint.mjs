// demo-endpoint.mjs — what the demo page checks before it sends to an
// endpoint: an empty base URL or model, an address that is not http(s), or a
// hosted provider without a key can only fail (as "Failed to fetch"), so the
// page says what to fill in instead. No DOM here.

/**
 * endpointProblem returns {field: "baseURL"|"model"|"apiKey", why} or null.
 * @param {{kind: string, baseURL?: string, model?: string, hasKey?: boolean}} s
 */
export function endpointProblem({ kind, baseURL = "", model = "", hasKey = false }) {
  if (kind === "demo") return null;
  if (!baseURL) return { field: "baseURL", why: "Enter the endpoint's base URL first (for example https://api.openai.com/v1), or pick the built-in demo model." };
  let url = null;
  try { url = new URL(baseURL); } catch { /* reported below */ }
  if (!url || !/^https?:$/.test(url.protocol)) return { field: "baseURL", why: `The base URL "${baseURL}" is not an http(s) address.` };
  if (!model) return { field: "model", why: "Enter a model name first (the endpoint's model id)." };
  if (!hasKey && /(^|\.)(openai|anthropic)\.com$/.test(url.hostname)) {
    return { field: "apiKey", why: `${url.host} needs an API key: enter yours, or pick the built-in demo model (no key).` };
  }
  return null;
}
