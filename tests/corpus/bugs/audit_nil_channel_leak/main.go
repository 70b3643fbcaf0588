// A service starts an audit writer that ranges over the audit channel. The
// channel is only made when auditing is enabled in the config; here it is
// disabled, so the writer ranges over a nil channel and blocks forever. main
// waits until the writer has started, does its work and returns.
//
// Expected: goroutine-leak, occurred, nil-chan, at the writer's range receive.
package main

import (
	"fmt"
	"strings"
)

type Config struct {
	Audit bool
	Users []string
}

type Service struct {
	audit chan string
	log   []string
}

func NewService(cfg Config) *Service {
	s := &Service{}
	if cfg.Audit {
		s.audit = make(chan string, 16)
	}
	return s
}

func (s *Service) auditWriter(started chan<- struct{}) {
	close(started)
	for line := range s.audit { // want: goroutine-leak occurred nil-chan
		s.log = append(s.log, line)
	}
}

func main() {
	cfg := Config{Audit: false, Users: []string{"alice", "bob"}}
	s := NewService(cfg)
	started := make(chan struct{})
	go s.auditWriter(started)
	<-started

	for _, u := range cfg.Users {
		fmt.Println("provisioned", strings.ToUpper(u))
	}
}
