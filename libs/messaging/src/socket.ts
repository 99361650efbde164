import type { Socket } from 'node:net';
import type { ChannelModel } from 'amqplib';

/**
 * Socket options of every AMQP connection this library opens. amqplib turns TCP_NODELAY off unless
 * told (`sock.setNoDelay(!!socketOptions.noDelay)`), so Nagle's algorithm held each small frame (a
 * publish, an ack, a `basic.get`) while an earlier one was unacknowledged, and RabbitMQ acknowledges
 * late (delayed ACK) unless it has something to send: a publish waited for the confirm of the one
 * before it, tens of ms on a quorum queue (issue 32). RabbitMQ's own sockets have it on already
 * (`tcp_listen_options.nodelay`, on by default); pg and ioredis set it on theirs.
 */
export const SOCKET_OPTIONS = { noDelay: true } as const;

/** The socket under an amqplib connection (not in its types; amqplib keeps it as `connection.stream`). */
export function socketOf(connection: ChannelModel): Socket | undefined {
  return (connection as unknown as { connection?: { stream?: Socket } }).connection?.stream;
}

/**
 * Frames written in one turn of the event loop leave together. amqplib writes every frame to the
 * socket on its own (each publish of a batch, each ack of a batch, a heartbeat), which with
 * TCP_NODELAY is one TCP segment each, and on this machine's loopback each segment costs both ends
 * CPU (the broker's reader wakes once per segment). Corked at the first write of a turn and uncorked
 * once the turn's code has run (`process.nextTick`), they go in one `writev`: what Nagle's algorithm
 * coalesced, without its wait.
 */
export function coalesceWrites(socket: Socket): void {
  const write = socket.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args as Parameters<typeof write>);
  } as Socket['write'];
}
