//go:build js

package toolnexus

// Under js/wasm there are no host files (a page, a Worker): the file store
// keeps nothing and says so.

func makeStoreDir(string) {}

// Get finds nothing: no file is ever written here.
func (s *FileTaskStore) Get(string) (*A2ATask, error) { return nil, nil }

// Save fails with ErrNoHostFiles.
func (s *FileTaskStore) Save(A2ATask) error { return ErrNoHostFiles }
