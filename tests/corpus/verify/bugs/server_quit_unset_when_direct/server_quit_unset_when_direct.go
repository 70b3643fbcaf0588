// NewServer makes the quit channel only for a background server; Shutdown
// closes it unconditionally, which on a direct server closes a nil channel.
package server

type Server struct {
	quit chan struct{}
}

func NewServer(background bool) *Server {
	s := &Server{}
	if background {
		s.quit = make(chan struct{})
	}
	return s
}

func (s *Server) Shutdown() {
	close(s.quit) // want: close-of-nil predicted
}

func Run(background bool) {
	s := NewServer(background)
	s.Shutdown()
}
