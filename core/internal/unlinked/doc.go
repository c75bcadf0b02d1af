// Package unlinked holds the tests of a program that imports core and none
// of its optional packages (core/builtins, core/skills, core/mcp): what
// core does then, and the errors that name the import to add.
package unlinked
