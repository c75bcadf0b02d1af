// toolnexus-chat.mjs — one module script puts an agent chat into any page:
//
//   <script type="module" src="toolnexus-chat.mjs"></script>
//   <toolnexus-chat demo></toolnexus-chat>
//
// It defines <toolnexus-chat> unless something already did (the class lives,
// side-effect free, in chat-element.mjs). The wasm is fetched from beside this
// file (or the element's wasm attribute) when the first element connects.

import { ToolnexusChatElement } from "./chat-element.mjs";

ToolnexusChatElement.define();

export { ToolnexusChatElement };
