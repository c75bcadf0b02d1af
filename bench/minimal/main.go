//go:build js && wasm

// Command minimal is the start-up yardstick of bench/browser.mjs: the least a
// Go wasm program does before a page can use it. main sets a global and
// blocks, and the page waits for that global.
package main

import "syscall/js"

func main() {
	js.Global().Set("minimalReady", true)
	select {}
}
