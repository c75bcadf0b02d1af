package once

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DirStore is a Store of files: answering request id creates one file in
// the folder, with O_EXCL, so of the processes of one machine (one file
// system) that answer it, exactly one creates it, and it outlives them.
// Nothing is ever removed: delete files older than any halt you still
// resume (a day, say) when the folder grows.
type DirStore struct {
	dir string
}

// NewDirStore returns the DirStore of dir, made (0700) if needed.
func NewDirStore(dir string) (*DirStore, error) {
	if dir == "" {
		return nil, errors.New("once: NewDirStore needs a folder")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("once: answers folder %s: %w", dir, err)
	}
	return &DirStore{dir: dir}, nil
}

// Spend implements Store. The file is synced, and so is the folder where
// the system allows it, before Spend reports the id fresh: a crash after
// that cannot forget the answer and let it run again.
func (d *DirStore) Spend(_ context.Context, id string) (bool, error) {
	if id == "" {
		return false, errNoID
	}
	// A digest as the name: a request id is any string, a file name is not.
	sum := sha256.Sum256([]byte(id))
	path := filepath.Join(d.dir, hex.EncodeToString(sum[:16]))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("once: %w", err)
	}
	_, werr := f.WriteString(id + "\n") // for whoever looks in the folder
	serr := f.Sync()
	if cerr := f.Close(); werr == nil && serr == nil {
		werr = cerr
	}
	if err := errors.Join(werr, serr); err != nil {
		return false, fmt.Errorf("once: recording %s: %w", path, err)
	}
	syncDir(d.dir)
	return true, nil
}

// syncDir makes the new file's name durable. Systems that cannot sync a
// folder (Windows) keep it with the file, so a failure here is ignored.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}
