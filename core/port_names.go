package core

// ClientStyle is the Go port's name for Style.
type ClientStyle = Style
