// The baseline of every benchmark figure: a bare Fastify route, in a process of its own
// like the portal's. Prints its port once listening.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
console.log(typeof address === 'object' && address ? address.port : 0);
