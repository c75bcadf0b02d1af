// question-form.mjs — the answer form for a `question` request.
//
// The built-in question tool suspends with {kind: "question", prompt,
// data: {questions: [{question, header?, options?, multiple?}]}}. questionForm
// renders each question as a fieldset: radio buttons for options (checkboxes
// when multiple), plus a free-text field ("Other" when there are options).
// answers() returns one entry per question, in order — a string, or a list
// of strings for a multiple-choice one — which the dialog sends back as the
// Answer's data.answers.
//
//   const form = questionForm(document, request.data.questions);
//   if (form) container.append(form.element);
//   …on submit: resolve({ id: request.id, ok: true, data: { answers: form.answers() } });
//
// All text from the request is set with textContent or value, never parsed as
// HTML. Importing this module touches no DOM, so it also loads under Node.

let seq = 0;

/**
 * @param {Document} doc
 * @param {unknown} questions  request.data.questions
 * @returns {{element: HTMLElement, answers: () => (string|string[])[]} | null}
 *   null when questions is not a non-empty list of {question}.
 */
export function questionForm(doc, questions) {
  if (!Array.isArray(questions) || questions.length === 0) return null;
  const list = questions.filter((q) => q && typeof q === "object" && typeof q.question === "string");
  if (list.length !== questions.length) return null;
  const form = doc.createElement("div");
  form.className = "tnx-questions";
  const readers = list.map((q) => {
    const n = ++seq;
    const set = doc.createElement("fieldset");
    set.className = "tnx-question";
    const legend = doc.createElement("legend");
    legend.textContent = q.header ? `${q.header}: ${q.question}` : q.question;
    set.append(legend);
    const options = Array.isArray(q.options) ? q.options.map(String) : [];
    const multiple = q.multiple === true;
    const boxes = options.map((opt, i) => {
      const label = doc.createElement("label");
      const input = doc.createElement("input");
      input.type = multiple ? "checkbox" : "radio";
      input.name = `tnx-q-${n}`;
      input.value = opt;
      if (!multiple && i === 0) input.checked = true;
      label.append(input, doc.createTextNode(" " + opt));
      set.append(label);
      return input;
    });
    const other = doc.createElement("input");
    other.type = "text";
    other.autocomplete = "off";
    other.className = "tnx-answer";
    other.setAttribute("aria-label", options.length ? `Other answer to: ${q.question}` : `Answer to: ${q.question}`);
    other.placeholder = options.length ? "Other (optional)" : "Your answer";
    set.append(other);
    form.append(set);
    return () => {
      const typed = other.value.trim();
      const picked = boxes.filter((b) => b.checked).map((b) => b.value);
      if (multiple) return typed ? [...picked, typed] : picked;
      return typed || picked[0] || "";
    };
  });
  return { element: form, answers: () => readers.map((read) => read()) };
}

// Static text only: nothing from a request reaches the stylesheet.
export const QUESTION_CSS = `
.tnx-approval .tnx-questions { display: grid; gap: 10px; margin: 8px 0; }
.tnx-approval .tnx-question { border: 1px solid var(--tnx-border); border-radius: 8px; padding: 8px 12px;
  display: grid; gap: 4px; }
.tnx-approval .tnx-question legend { font-weight: 600; padding: 0 4px; }
`;
