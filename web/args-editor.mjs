// args-editor.mjs — the "Edit" mode of the approval dialog: the arguments as
// a JSON textbox, read back and checked against the tool's input schema
// before the dialog lets an approval go. core checks an edit again (the
// same checks, core/approval.go validateArgs), so this is for the person,
// not for safety: a mistake is shown in the dialog instead of becoming a
// failed call.
// Importing this module touches no DOM.

/**
 * argsEditor builds a labelled <textarea> holding args as indented JSON.
 * read() returns {ok: true, args, edited} or {ok: false, error}.
 * @param {Document} doc
 * @param {{args: object, schema?: object, id: string, describedBy?: string}} o
 */
export function argsEditor(doc, { args, schema, id, describedBy }) {
  const original = JSON.stringify(args ?? {}, null, 2);
  const label = doc.createElement("label");
  label.setAttribute("for", id);
  label.className = "tnx-label";
  label.textContent = "Arguments";
  const textarea = doc.createElement("textarea");
  textarea.id = id;
  textarea.className = "tnx-args-edit";
  textarea.spellcheck = false;
  textarea.setAttribute("autocomplete", "off");
  textarea.setAttribute("autocapitalize", "off");
  if (describedBy) textarea.setAttribute("aria-describedby", describedBy);
  textarea.value = original;
  textarea.rows = Math.min(16, Math.max(4, original.split("\n").length + 1));
  const element = doc.createElement("div");
  element.className = "tnx-args-editor";
  element.append(label, textarea);
  return {
    element,
    textarea,
    read() {
      let value;
      try {
        value = JSON.parse(textarea.value);
      } catch (err) {
        return { ok: false, error: `The arguments are not valid JSON: ${err.message}` };
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return { ok: false, error: "The arguments must be a JSON object ({ … })." };
      }
      const problem = checkArgs(schema, value);
      if (problem) return { ok: false, error: `The arguments do not fit the tool: ${problem}.` };
      return { ok: true, args: value, edited: !sameJSON(value, args ?? {}) };
    },
  };
}

/**
 * checkArgs returns what is wrong with args under a JSON Schema, or "": the
 * checks core makes on an edit (required keys, each declared property's
 * type and enum, additionalProperties: false), in core's words.
 */
export function checkArgs(schema, args) {
  if (!schema || typeof schema !== "object") return "";
  const problems = [];
  for (const key of list(schema.required)) {
    if (!Object.hasOwn(args, key)) problems.push(`missing required "${key}"`);
  }
  const props = schema.properties && typeof schema.properties === "object" ? schema.properties : {};
  for (const key of Object.keys(args).sort()) {
    const p = Object.hasOwn(props, key) ? props[key] : undefined;
    if (!p || typeof p !== "object") {
      if (schema.additionalProperties === false) problems.push(`unexpected property "${key}"`);
      continue;
    }
    const want = list(p.type);
    if (want.length > 0 && !want.some((t) => typeMatches(args[key], t))) problems.push(`"${key}" must be ${want.join(" or ")}`);
    if (Array.isArray(p.enum) && !p.enum.some((e) => sameJSON(e, args[key]))) problems.push(`"${key}" must be one of ${JSON.stringify(p.enum)}`);
  }
  return problems.join("; ");
}

function typeMatches(v, type) {
  switch (type) {
    case "string": return typeof v === "string";
    case "number": return typeof v === "number";
    case "integer": return Number.isInteger(v);
    case "boolean": return typeof v === "boolean";
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    case "array": return Array.isArray(v);
    case "null": return v === null;
  }
  return false;
}

function list(v) {
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((x) => typeof x === "string") : [];
}

// sameJSON compares two JSON values, ignoring key order.
function sameJSON(a, b) {
  return canonical(a) === canonical(b);
}

function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}
