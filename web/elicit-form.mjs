// elicit-form.mjs — a flat form for an MCP elicitation's requested schema.
//
// An MCP server may ask the person for input (elicitation/create, form mode);
// the toolkit turns that into a waitFor request {kind: "input", prompt,
// data: {schema, server}}. elicitForm renders data.schema — a flat object
// whose properties are strings, numbers, integers, booleans or enums — as
// labelled inputs, and read() returns the values to send back as the
// Answer's data:
//
//   const form = elicitForm(request.data.schema, { document });
//   container.append(form.element);
//   …on submit:
//   const r = form.read();
//   if (!r.ok) { r.input?.focus(); return; }    // r.error says what is wrong
//   resolve({ id: request.id, ok: true, data: r.data });
//
// Rules:
//   - Text from the schema (titles, descriptions, enum labels, defaults) is set
//     with textContent / value, never parsed as HTML.
//   - Never a password field. A property whose name or format looks like a
//     secret (password, secret, token, API key, credential, private key) is
//     not rendered at all: it is listed in `refused` and left out of read(),
//     so a server cannot collect credentials through the form (MCP servers
//     must use URL mode for those).
//   - Nested objects and arrays are not rendered either (listed in
//     `unsupported`); the form stays flat.
// Importing this module touches no DOM, so it also loads under Node.

const SECRET_PART = /password|passphrase|passwd|passcode|secret|token|apikey|credential|privatekey/;
const SECRET_WORD = new Set(["pass", "pin", "otp", "cvv", "cvc", "ssn", "key"]);

// looksSecret checks a name, title or format: squashed ("api_key" ⇒ "apikey")
// for the long words, word by word (camelCase split) for the short ones.
function looksSecret(text) {
  const s = String(text ?? "");
  if (SECRET_PART.test(s.toLowerCase().replace(/[^a-z0-9]/g, ""))) return true;
  return s.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).some((w) => SECRET_WORD.has(w));
}

/**
 * isElicitRequest reports whether a waitFor request carries a form schema.
 * @param {object} request
 */
export function isElicitRequest(request) {
  const s = request?.data?.schema;
  return request?.kind === "input" && s != null && typeof s === "object" && typeof s.properties === "object" && s.properties !== null;
}

/**
 * elicitFields normalises a requested schema into a list of flat fields.
 * @param {object} schema {type: "object", properties, required?}
 * @returns {{fields: object[], refused: string[], unsupported: string[]}}
 */
export function elicitFields(schema) {
  const props = schema && typeof schema.properties === "object" && schema.properties ? schema.properties : {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required.map(String) : []);
  const fields = [];
  const refused = [];
  const unsupported = [];
  for (const [name, raw] of Object.entries(props)) {
    const p = raw && typeof raw === "object" ? raw : {};
    if (looksSecret(name) || looksSecret(p.format) || looksSecret(p.title)) {
      refused.push(name);
      continue;
    }
    const options = enumOptions(p);
    let type = p.type;
    if (options) type = "enum";
    else if (!["string", "number", "integer", "boolean"].includes(type)) {
      unsupported.push(name);
      continue;
    }
    fields.push({
      name, type, options,
      title: String(p.title ?? name),
      description: p.description == null ? "" : String(p.description),
      required: required.has(name),
      default: p.default,
      format: typeof p.format === "string" ? p.format : "",
      minimum: num(p.minimum), maximum: num(p.maximum),
      minLength: num(p.minLength), maxLength: num(p.maxLength),
    });
  }
  return { fields, refused, unsupported };
}

// enumOptions reads enum (+ enumNames) or oneOf/anyOf [{const, title}].
function enumOptions(p) {
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.map((v, i) => ({ value: v, label: String(names[i] ?? v) }));
  }
  const alts = Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : null;
  if (alts && alts.length && alts.every((a) => a && "const" in a)) {
    return alts.map((a) => ({ value: a.const, label: String(a.title ?? a.const) }));
  }
  return null;
}

function num(v) {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

// ELICIT_CSS styles the form inside the approval dialog (static text only;
// the dialog's own stylesheet supplies the colour variables).
export const ELICIT_CSS = `
.tnx-approval .tnx-elicit { display: grid; gap: 10px; margin: 8px 0; }
.tnx-approval .tnx-field { display: grid; gap: 4px; }
.tnx-approval .tnx-field-boolean { display: flex; align-items: center; gap: 8px; }
.tnx-approval .tnx-field small, .tnx-approval .tnx-elicit [role=note] { color: var(--tnx-muted); }
.tnx-approval .tnx-required { color: var(--tnx-danger); }
.tnx-approval select { font: inherit; color: inherit; background: var(--tnx-bg);
  border: 1px solid var(--tnx-border); border-radius: 6px; padding: 6px 8px; }
`;

const INPUT_TYPE = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" };
let seq = 0;

/**
 * elicitForm renders the schema. element is a <div class="tnx-elicit">
 * (not a <form>, so Enter never submits on its own).
 * @param {object} schema
 * @param {{document?: Document, idPrefix?: string}} [options]
 * @returns {{element: HTMLElement, fields: object[], refused: string[], unsupported: string[],
 *            read: () => ({ok: true, data: object} | {ok: false, error: string, input?: HTMLElement})}}
 */
export function elicitForm(schema, { document: doc = globalThis.document, idPrefix } = {}) {
  if (!doc) throw new Error("toolnexus: elicitForm needs a document");
  const prefix = idPrefix ?? `tnx-elicit-${++seq}`;
  const el = (tag, props = {}, ...children) => {
    const node = doc.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "text") node.textContent = v;
      else if (v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
    }
    node.append(...children);
    return node;
  };
  const { fields, refused, unsupported } = elicitFields(schema);
  const element = el("div", { class: "tnx-elicit" });
  const inputs = new Map();

  fields.forEach((f, i) => {
    const id = `${prefix}-${i}`;
    const hintId = f.description ? `${id}-hint` : undefined;
    let input;
    if (f.type === "enum") {
      input = el("select", { id, required: f.required, "aria-describedby": hintId });
      if (!f.required || f.default === undefined) input.append(el("option", { value: "", text: f.required ? "Choose…" : "(none)" }));
      f.options.forEach((o, j) => {
        const opt = el("option", { value: String(j), text: o.label });
        if (f.default !== undefined && o.value === f.default) opt.selected = true;
        input.append(opt);
      });
    } else if (f.type === "boolean") {
      input = el("input", { id, type: "checkbox", "aria-describedby": hintId });
      input.checked = f.default === true;
    } else if (f.type === "number" || f.type === "integer") {
      input = el("input", { id, type: "number", step: f.type === "integer" ? "1" : "any", min: f.minimum, max: f.maximum,
        required: f.required, "aria-describedby": hintId, autocomplete: "off" });
      if (typeof f.default === "number") input.value = String(f.default);
    } else {
      input = el("input", { id, type: INPUT_TYPE[f.format] ?? "text", minlength: f.minLength, maxlength: f.maxLength,
        required: f.required, "aria-describedby": hintId, autocomplete: "off" });
      if (typeof f.default === "string") input.value = f.default;
    }
    input.dataset.name = f.name;
    inputs.set(f.name, input);
    // The label is the title alone; "required" is the input's own attribute
    // (announced by screen readers), the star only a visual hint beside it.
    const label = el("label", { for: id, text: f.title });
    const star = f.required ? [el("span", { class: "tnx-required", "aria-hidden": "true", text: "*" })] : [];
    const row = el("div", { class: `tnx-field tnx-field-${f.type}` });
    if (f.type === "boolean") row.append(input, label, ...star);
    else row.append(label, ...star, input);
    if (hintId) row.append(el("small", { id: hintId, text: f.description }));
    element.append(row);
  });
  if (refused.length) {
    element.append(el("p", { class: "tnx-refused", role: "note",
      text: `Not asked here (looks like a secret; never type secrets into this form): ${refused.join(", ")}` }));
  }
  if (unsupported.length) {
    element.append(el("p", { class: "tnx-unsupported", role: "note", text: `Fields this form cannot show: ${unsupported.join(", ")}` }));
  }

  function read() {
    const data = {};
    for (const f of fields) {
      const input = inputs.get(f.name);
      const bad = (error) => ({ ok: false, error: `${f.title}: ${error}`, input });
      if (f.type === "boolean") {
        data[f.name] = input.checked;
        continue;
      }
      const raw = input.value;
      if (raw === "") {
        if (f.required) return bad("required");
        continue;
      }
      if (f.type === "enum") {
        const o = f.options[Number(raw)];
        if (!o) return bad("choose one of the options");
        data[f.name] = o.value;
      } else if (f.type === "number" || f.type === "integer") {
        const v = Number(raw);
        if (!Number.isFinite(v)) return bad("not a number");
        if (f.type === "integer" && !Number.isInteger(v)) return bad("must be a whole number");
        if (f.minimum !== undefined && v < f.minimum) return bad(`at least ${f.minimum}`);
        if (f.maximum !== undefined && v > f.maximum) return bad(`at most ${f.maximum}`);
        data[f.name] = v;
      } else {
        if (f.minLength !== undefined && raw.length < f.minLength) return bad(`at least ${f.minLength} characters`);
        if (f.maxLength !== undefined && raw.length > f.maxLength) return bad(`at most ${f.maxLength} characters`);
        data[f.name] = raw;
      }
    }
    return { ok: true, data };
  }

  return { element, fields, refused, unsupported, read };
}
