package a2a

import (
	"strconv"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// The JSON-RPC error codes an A2A server answers with: JSON-RPC 2.0's own
// and A2A's.
const (
	CodeParseError           = -32700 // the body is not JSON
	CodeInvalidRequest       = -32600 // not a JSON-RPC 2.0 request, too large or too deep
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeTaskNotFound         = -32001
	CodeTaskNotCancelable    = -32002
	CodeUnsupportedOperation = -32004
	// What a server does not offer: push notifications, an extended card,
	// the protocol version a request asks for.
	CodePushNotSupported          = -32003
	CodeExtendedCardNotConfigured = -32007
	CodeVersionNotSupported       = -32009
)

// MaxParamsDepth is how deeply DecodeRequest lets a request nest: a
// message of parts of data is a few levels; a thousand is an attack on a
// recursive reader.
const MaxParamsDepth = 32

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return e.Message + " (JSON-RPC " + strconv.Itoa(e.Code) + ")" }

// RPCRequest is one decoded JSON-RPC 2.0 request.
type RPCRequest struct {
	// ID is the request id's JSON text ("1", "\"a\"", "null" for none),
	// echoed as is by AppendResult and AppendError.
	ID     string
	Method string
	// Params is the params object; it does not exist when the request
	// has none.
	Params gjson.Result
}

// DecodeRequest reads one JSON-RPC 2.0 request to an A2A server, checking
// before anything reads it deeply: at most maxBytes (0: no bound) and
// MaxParamsDepth levels, valid JSON (else CodeParseError), an object with
// "jsonrpc": "2.0", a string method and a string, number or null id, and
// params an object when present (else CodeInvalidRequest or
// CodeInvalidParams). The error's RPCRequest still has the ID when it
// could be read, for the reply.
func DecodeRequest(body []byte, maxBytes int) (RPCRequest, *RPCError) {
	req := RPCRequest{ID: "null"}
	if maxBytes > 0 && len(body) > maxBytes {
		return req, &RPCError{CodeInvalidRequest, "Invalid Request: the body is over " + strconv.Itoa(maxBytes) + " bytes"}
	}
	if err := jsonx.CheckDepth(body, MaxParamsDepth); err != nil {
		return req, &RPCError{CodeInvalidRequest, "Invalid Request: nested deeper than " + strconv.Itoa(MaxParamsDepth) + " levels"}
	}
	if !gjson.ValidBytes(body) {
		return req, &RPCError{CodeParseError, "Parse error"}
	}
	doc := gjson.ParseBytes(body)
	if !doc.IsObject() {
		return req, &RPCError{CodeInvalidRequest, "Invalid Request: want a JSON-RPC 2.0 request object"}
	}
	switch id := doc.Get("id"); id.Type {
	case gjson.String, gjson.Number, gjson.Null:
		if id.Exists() {
			req.ID = id.Raw
		}
	default:
		return req, &RPCError{CodeInvalidRequest, "Invalid Request: the id must be a string, a number or null"}
	}
	if doc.Get("jsonrpc").String() != "2.0" {
		return req, &RPCError{CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`}
	}
	m := doc.Get("method")
	if m.Type != gjson.String || m.String() == "" {
		return req, &RPCError{CodeInvalidRequest, "Invalid Request: no method"}
	}
	req.Method = m.String()
	if p := doc.Get("params"); p.Exists() {
		if !p.IsObject() {
			return req, &RPCError{CodeInvalidParams, "Invalid params: want an object"}
		}
		req.Params = p
	}
	return req, nil
}

// AppendResult writes the JSON-RPC response carrying result (JSON text).
func AppendResult(dst []byte, id string, result []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"result":`...)
	dst = append(dst, result...)
	return append(dst, '}')
}

// AppendError writes the JSON-RPC response carrying e.
func AppendError(dst []byte, id string, e *RPCError) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst = jsonx.AppendString(dst, e.Message)
	return append(dst, "}}"...)
}

// MessageText is the text of a SendMessage request's message: its text
// parts, joined (1.0's {"text"} parts and 0.3's {"kind":"text"} ones).
func MessageText(params gjson.Result) string {
	text, _ := partsText(params.Get("message.parts"))
	return text
}
