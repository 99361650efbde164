import { Router } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { buildAsyncApiDocument, buildOpenApiDocument, type AsyncApiDocument } from '@academy/contracts';

/**
 * `/api/docs`: Swagger UI over the one OpenAPI document (the raw JSON at `/api/docs/openapi.json`),
 * and the events: the AsyncAPI 3 document at `/api/docs/asyncapi.json`, rendered as a page at
 * `/api/docs/events` (each type, its versions, who publishes and consumes it, its payload schema).
 * Both built once at start.
 */
export function docsRouter(): Router {
  const document = buildOpenApiDocument();
  const events = buildAsyncApiDocument();
  const eventsPage = renderEvents(events);
  document.info.description = `${document.info.description ?? ''}\n\nEvents on the bus: [the event catalogue](./events) (AsyncAPI 3: [asyncapi.json](./asyncapi.json)).`;
  const router = Router();
  // The default CSP upgrades asset requests to https, which leaves the UI blank on a plain-http dev gateway.
  router.use(helmet.contentSecurityPolicy({ directives: { upgradeInsecureRequests: null } }));
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/asyncapi.json', (_req, res) => {
    res.json(events);
  });
  router.get('/events', (_req, res) => {
    res.type('html').send(eventsPage);
  });
  router.use('/', swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Academy API' }));
  return router;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Operation {
  action: 'send' | 'receive';
  title: string;
  channel: { $ref: string };
}
interface Channel {
  address: string;
  description: string;
  messages: Record<string, { $ref: string }>;
}
interface Message {
  title: string;
  summary: string;
  payload: { properties: { data: unknown } };
}

/** A static page (no script: the gateway's CSP stays strict) of the AsyncAPI document. */
function renderEvents(document: AsyncApiDocument): string {
  const channels = document.channels as Record<string, Channel>;
  const operations = Object.values(document.operations as Record<string, Operation>);
  const messages = (document.components as { messages: Record<string, Message> }).messages;
  const sections = Object.entries(channels).map(([id, channel]) => {
    const parties = (action: Operation['action']) =>
      operations
        .filter((op) => op.action === action && op.channel.$ref === `#/channels/${id}`)
        .map((op) => escape(op.title))
        .join('<br>') || '—';
    const versions = Object.values(channel.messages).map((ref) => messages[ref.$ref.split('/').pop() ?? '']);
    return `<section id="${escape(channel.address)}"><h2>${escape(channel.address)}</h2><p>${escape(channel.description)}</p>
<table><tr><th>published</th><td>${parties('send')}</td></tr><tr><th>consumed</th><td>${parties('receive')}</td></tr></table>
${versions.map((message) => `<details><summary>${escape(message.title)}: <code>data</code> schema</summary><pre>${escape(JSON.stringify(message.payload.properties.data, null, 2))}</pre></details>`).join('\n')}
</section>`;
  });
  const info = document.info as { title: string; description: string };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}th{text-align:left;padding-right:1rem;vertical-align:top}pre{background:#f4f4f4;padding:.5rem;overflow:auto}section{border-top:1px solid #ddd}</style></head>
<body><h1>${escape(info.title)}</h1><p>${escape(info.description)}</p><p><a href="./asyncapi.json">asyncapi.json</a> · <a href="./">HTTP API</a></p>
<nav>${Object.values(channels).map((channel) => `<a href="#${escape(channel.address)}">${escape(channel.address)}</a>`).join(' · ')}</nav>
${sections.join('\n')}</body></html>`;
}
