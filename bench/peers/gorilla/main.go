// Chat-room relay on Go + gorilla/websocket (Debian's packages, built offline):
// every text frame received is sent to every client connected on the same request
// path (the room), the sender included. One writer goroutine per connection with
// a buffered queue, as gorilla's chat example does.
// Usage: gorilla-peer PORT (or env PORT).
package main

import (
	"fmt"
	"net/http"
	"os"
	"sync"

	"github.com/gorilla/websocket"
)

type client struct {
	conn *websocket.Conn
	send chan []byte
}

type room struct {
	mu      sync.RWMutex
	clients map[*client]struct{}
}

var (
	roomsMu  sync.Mutex
	rooms    = map[string]*room{}
	upgrader = websocket.Upgrader{
		ReadBufferSize:    4096,
		WriteBufferSize:   4096,
		EnableCompression: false,
		CheckOrigin:       func(r *http.Request) bool { return true },
	}
)

func getRoom(path string) *room {
	roomsMu.Lock()
	defer roomsMu.Unlock()
	r := rooms[path]
	if r == nil {
		r = &room{clients: map[*client]struct{}{}}
		rooms[path] = r
	}
	return r
}

func serveWS(w http.ResponseWriter, req *http.Request) {
	conn, err := upgrader.Upgrade(w, req, nil)
	if err != nil {
		return
	}
	conn.SetReadLimit(16 << 20)
	c := &client{conn: conn, send: make(chan []byte, 1024)}
	r := getRoom(req.URL.Path)
	r.mu.Lock()
	r.clients[c] = struct{}{}
	r.mu.Unlock()

	go func() { // writer
		for msg := range c.send {
			if err := conn.WriteMessage(websocket.TextMessage, msg); err != nil {
				break
			}
		}
		conn.Close()
	}()
	defer func() {
		r.mu.Lock()
		delete(r.clients, c)
		r.mu.Unlock()
		close(c.send)
	}()
	for {
		mt, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		if mt != websocket.TextMessage {
			continue
		}
		r.mu.RLock()
		for o := range r.clients {
			select {
			case o.send <- msg:
			default: // queue full: drop (counted as a missing delivery by the load generator)
			}
		}
		r.mu.RUnlock()
	}
}

func main() {
	port := "9003"
	if len(os.Args) > 1 {
		port = os.Args[1]
	} else if p := os.Getenv("PORT"); p != "" {
		port = p
	}
	http.HandleFunc("/", serveWS)
	fmt.Printf("listening on http://127.0.0.1:%s\n", port)
	if err := http.ListenAndServe("127.0.0.1:"+port, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
