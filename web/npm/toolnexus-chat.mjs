// toolnexus-chat.mjs (the npm package's "toolnexus-wasm/element") defines
// <toolnexus-chat> unless something already did, and exports its class (it
// lives, side-effect free, in chat-element.mjs). web/toolnexus-chat.mjs, the
// module a page loads as it is, paints the box before the class arrives; a
// bundler puts these modules in one file, so this one imports the class.

import { ToolnexusChatElement } from "./chat-element.mjs";

ToolnexusChatElement.define();

export { ToolnexusChatElement };
