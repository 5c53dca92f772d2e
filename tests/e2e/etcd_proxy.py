# SPDX-License-Identifier: MIT
"""A TCP proxy between rvscope and etcd for fault tests: it forwards both ways, and once armed
it lets the next large request through to etcd (a Txn carrying an object: the gRPC pings and
window updates of HTTP/2 are a few bytes) and then cuts that connection before etcd's answer
reaches rvscope. The write is applied, and rvscope cannot know it: the outcome is unknown."""
import socket
import threading

LARGE = 200  # bytes: a Txn with an object; Range requests and HTTP/2 control frames are smaller


class CuttingProxy:
    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.armed = False
        self.request_through = None   # the connection whose large request went through armed
        self.cuts = 0
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def arm(self):
        with self.lock:
            self.armed = True
            self.request_through = None

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            pair = (client, server)
            threading.Thread(target=self._pump, args=(client, server, pair, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, pair, False), daemon=True).start()

    def _pump(self, source, sink, pair, upstream):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                with self.lock:
                    if upstream and self.armed and self.request_through is None and len(data) >= LARGE:
                        self.request_through = pair
                    elif not upstream and self.request_through is pair:
                        # etcd's answer (or the feed's event for the same write): never delivered.
                        self.armed = False
                        self.request_through = None
                        self.cuts += 1
                        break
                sink.sendall(data)
        except OSError:
            pass
        for end in pair:  # wakes the other direction's pump, which closes its own source
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        source.close()

    def close(self):
        self.closed = True
        self.listener.close()
