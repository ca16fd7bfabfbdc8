// Ping/pong on a WebSocket: if no pong comes back within `graceMs`, close and reconnect.
export class Heartbeat {
  private timer?: ReturnType<typeof setInterval>;
  private lastPong = Date.now();

  constructor(private socket: WebSocket, private everyMs = 15000, private graceMs = 45000) {}

  start(onDead: () => void): void {
    this.socket.addEventListener('message', (ev) => {
      if (ev.data === 'pong') this.lastPong = Date.now();
    });
    this.timer = setInterval(() => {
      if (Date.now() - this.lastPong > this.graceMs) {
        this.stop();
        onDead();
        return;
      }
      this.socket.send('ping');
    }, this.everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
