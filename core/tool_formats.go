package core

// The tool list in each provider's format, as the Go port returns it: a
// []any whose elements are these structs (their JSON is the provider's).

// OpenAITool is one tool in OpenAI's chat "tools" shape.
type OpenAITool struct {
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function of an OpenAITool.
type OpenAIFunction struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Parameters  JSONSchema `json:"parameters"`
}

// AnthropicTool is one tool in Anthropic's messages "tools" shape.
type AnthropicTool struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	InputSchema JSONSchema `json:"input_schema"`
}

// GeminiFunctionDeclaration is one tool as a Gemini function declaration.
type GeminiFunctionDeclaration struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Parameters  JSONSchema `json:"parameters"`
}

// GeminiTool groups function declarations, as Gemini's "tools" entries do.
type GeminiTool struct {
	FunctionDeclarations []GeminiFunctionDeclaration `json:"functionDeclarations"`
}

// ToOpenAI returns tools in OpenAI's chat "tools" shape (OpenAITool values).
func ToOpenAI(tools []Tool) []any {
	out := make([]any, 0, len(tools))
	for _, t := range tools {
		out = append(out, OpenAITool{Type: "function", Function: OpenAIFunction{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}})
	}
	return out
}

// ToAnthropic returns tools in Anthropic's messages "tools" shape
// (AnthropicTool values).
func ToAnthropic(tools []Tool) []any {
	out := make([]any, 0, len(tools))
	for _, t := range tools {
		out = append(out, AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	return out
}

// ToGemini returns tools as Gemini expects them: one GeminiTool holding a
// function declaration per tool (an empty list when there are none).
func ToGemini(tools []Tool) []any {
	if len(tools) == 0 {
		return []any{}
	}
	decls := make([]GeminiFunctionDeclaration, 0, len(tools))
	for _, t := range tools {
		decls = append(decls, GeminiFunctionDeclaration{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
	}
	return []any{GeminiTool{FunctionDeclarations: decls}}
}
