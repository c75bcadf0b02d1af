// Package vfs is the virtual file system of the built-in file tools: the
// FileSystem interface a host implements (a Worker over R2 or KV, a page
// over IndexedDB) and MemFS, an in-memory one that is also an io/fs.FS (so
// skills can be loaded from it). It imports nothing of core.
package vfs
