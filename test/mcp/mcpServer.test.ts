import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, startGatewayUnderTest } from '../compat/support/gatewayUnderTest.js';

/**
 * The MCP endpoint (issue 52, docs/mcp.md) through the official SDK's own client over Streamable
 * HTTP: an app's agent lists its tools, drafts and confirms a send that the simulated modem puts
 * on the air, reads its state, and is held to the app's quota; every send is the app's line in
 * the audit trail. The stdio bridge (`mcp`, for desktop agents) is the real CLI in a child
 * process, driven by the SDK's stdio client.
 */
let under: GatewayUnderTest | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await under?.stop();
  under = undefined;
});

const assistant = { name: 'assistant', password: 'assistant-secret-1' };
const assistantBasic = `Basic ${Buffer.from(`${assistant.name}:${assistant.password}`).toString('base64')}`;
const agentScopes = [
  'mcp:use',
  'messages:send',
  'messages:read',
  'messages:list',
  'inbox:list',
  'devices:list',
  'verify:send',
  'verify:check',
];

async function gatewayWithAssistant(perDay: number): Promise<GatewayUnderTest> {
  const gateway = await startGatewayUnderTest();
  under = gateway;
  const added = await gateway.request('POST', '/gateway/v1/apps', {
    json: { ...assistant, quota: { perDay, resetAt: '00:00', timeZone: 'UTC' } },
  });
  expect(added.status).toBe(201);
  return gateway;
}

async function appToken(gateway: GatewayUnderTest, scopes: readonly string[]): Promise<string> {
  const issued = await gateway.request('POST', '/auth/token', {
    json: { scopes },
    authorization: assistantBasic,
  });
  expect(issued.status, issued.text).toBe(201);
  return `Bearer ${(issued.body as { access_token: string }).access_token}`;
}

async function connect(gateway: GatewayUnderTest, authorization: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
      requestInit: { headers: { Authorization: authorization } },
    }),
  );
  clients.push(client);
  return client;
}

const childStartMs = 120_000;

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = result.content[0]?.text ?? '';
  return { isError: result.isError === true, json: JSON.parse(text) as Record<string, unknown> };
}

describe('the MCP endpoint', () => {
  it('lets an app’s agent draft, confirm and follow a send, on the app’s quota and in the audit trail', async () => {
    const gateway = await gatewayWithAssistant(2);
    const agent = await connect(gateway, await appToken(gateway, agentScopes));

    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'check_verification',
        'confirm_send',
        'get_message',
        'list_inbox',
        'list_messages',
        'list_modems',
        'send_sms',
        'start_verification',
      ].sort(),
    );
    expect(tools.find((tool) => tool.name === 'send_sms')?.inputSchema.required).toEqual([
      'phoneNumbers',
      'text',
    ]);

    // Confirmation mode (the default): a draft, and nothing queued.
    const draft = await callTool(agent, 'send_sms', {
      phoneNumbers: ['+15551230301'],
      text: 'Your table is ready',
    });
    expect(draft).toMatchObject({
      isError: false,
      json: { sent: false, recipients: ['+15551230301'], partsPerRecipient: 1 },
    });
    expect((await gateway.request('GET', '/messages')).body).toEqual([]);

    const confirmed = await callTool(agent, 'confirm_send', { confirmation: draft.json.confirmation });
    expect(confirmed.isError, JSON.stringify(confirmed.json)).toBe(false);
    const message = confirmed.json.message as { id: string };
    const again = await callTool(agent, 'confirm_send', { confirmation: draft.json.confirmation });
    expect(again).toMatchObject({ isError: true, json: { error: { field: 'confirmation' } } });

    const modem = gateway.gateway.simulatedModems[0];
    await gateway.runUntil(() => (modem?.accepted.length ?? 0) >= 1, 'the SMS on the air');
    expect(modem?.accepted[0]?.decoded).toMatchObject({
      recipient: { number: '+15551230301' },
      text: 'Your table is ready',
    });
    await gateway.runUntil(
      async () => (await callTool(agent, 'get_message', { id: message.id })).json.state !== 'Pending',
      'the message state past Pending',
    );
    const state = await callTool(agent, 'get_message', { id: message.id });
    expect(['Processed', 'Sent', 'Delivered']).toContain(state.json.state);
    // The message is the app's, as if it had used the HTTP API.
    const asApp = await gateway.request('GET', `/messages/${message.id}`, { authorization: assistantBasic });
    expect(asApp.status).toBe(200);

    // Without confirmation the send goes at once; the app's quota of two holds the third.
    expect(
      (await gateway.request('PATCH', '/settings', { json: { mcp: { confirm_sends: false } } })).status,
    ).toBe(200);
    const second = await callTool(agent, 'send_sms', { phoneNumbers: ['+15551230302'], text: 'Second' });
    expect(second.json).toMatchObject({ sent: true });
    const third = await callTool(agent, 'send_sms', { phoneNumbers: ['+15551230303'], text: 'Third' });
    expect(third.isError).toBe(true);
    expect(third.json.error).toMatchObject({ retryAfterSeconds: expect.any(Number) });
    const listed = await callTool(agent, 'list_messages', { search: '+1555123030' });
    expect(listed.json.total).toBe(2);

    const audit = await gateway.request('GET', '/gateway/v1/audit?limit=50');
    const lines = (audit.body as { action: string; actorId: string; subject: string }[]).filter((line) =>
      line.action.startsWith('MCP '),
    );
    expect(lines.map((line) => [line.action, line.actorId]).reverse()).toEqual([
      ['MCP send_sms', expect.stringMatching(/^app:/)],
      ['MCP confirm_send', expect.stringMatching(/^app:/)],
      ['MCP send_sms', expect.stringMatching(/^app:/)],
    ]);
    expect(lines.at(-2)?.subject).toBe(message.id);
    // The window's "Sent by" names the app and the way it came.
    const actors = await gateway.request('POST', '/gateway/v1/audit/actors', {
      json: { subjects: [message.id] },
    });
    expect(actors.body).toEqual({ [message.id]: 'assistant, by an AI agent (MCP)' });
  });

  it('lists only what a token’s scopes open, and refuses a token without mcp:use', async () => {
    const gateway = await gatewayWithAssistant(100);
    const readerToken = await appToken(gateway, ['mcp:use', 'devices:list']);
    const reader = await connect(gateway, readerToken);
    // Stateless: no server-sent stream and no session to end.
    const headers = { Accept: 'text/event-stream' };
    expect((await gateway.request('GET', '/mcp', { authorization: readerToken, headers })).status).toBe(405);
    expect((await gateway.request('DELETE', '/mcp', { authorization: readerToken, headers })).status).toBe(
      405,
    );
    expect((await reader.listTools()).tools.map((tool) => tool.name)).toEqual(['list_modems']);
    const modems = await callTool(reader, 'list_modems');
    expect((modems.json.devices as { id: string }[]).length).toBe(1);

    await expect(connect(gateway, await appToken(gateway, ['devices:list']))).rejects.toThrow(
      /lacks the scope \\"mcp:use\\"/,
    );
    await expect(connect(gateway, 'Bearer not-a-token')).rejects.toThrow(/Error POSTing.*token/);

    // A person's token with the desk's scopes also reads conversations.
    await gateway.receiveSms('+15551230309', 'Is the shop open on Sunday?');
    const operator = await connect(
      gateway,
      await gateway.bearer(['mcp:use', 'conversations:read', 'inbox:list']),
    );
    // The desk files an arrival into its conversations on its own time.
    await gateway.runUntil(
      async () =>
        ((await callTool(operator, 'list_conversations')).json.conversations as unknown[]).length > 0,
      'the conversation filed',
    );
    const conversations = await callTool(operator, 'list_conversations');
    expect(conversations.json.conversations).toEqual([
      expect.objectContaining({ number: '+15551230309', lastText: 'Is the shop open on Sunday?', unread: 1 }),
    ]);
    const thread = await callTool(operator, 'read_conversation', { phoneNumber: '+15551230309' });
    expect(thread.json.messages).toEqual([
      expect.objectContaining({ direction: 'in', text: 'Is the shop open on Sunday?' }),
    ]);
    const inbox = await callTool(operator, 'list_inbox', { search: 'Sunday' });
    expect(inbox.json.total).toBe(1);
  });

  it('answers a desktop agent over stdio through the `mcp` command, with an app’s login', {
    timeout: 2 * childStartMs,
  }, async () => {
    const gateway = await gatewayWithAssistant(100);
    const port = new URL(gateway.url).port;
    const agent = new Client({ name: 'desktop-agent', version: '1.0.0' });
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'server/cli/main.ts', 'mcp', '--listen', `127.0.0.1:${port}`],
      env: { PATH: process.env.PATH ?? '', SMSGW_MCP_TOKEN: `${assistant.name}:${assistant.password}` },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    // The child loads the whole gateway's modules first: on a loaded machine that takes a while.
    await agent.connect(transport, { timeout: childStartMs });
    clients.push(agent);
    expect(agent.getServerVersion()?.name).toBe('desktop-sms-gateway');
    // An app's login holds every scope an app may: all of the app's tools.
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toContain('send_sms');
    const drafted = await callTool(agent, 'send_sms', {
      phoneNumbers: ['+15551230310'],
      text: 'From the desktop',
    });
    expect(drafted.json, stderr.join('')).toMatchObject({ sent: false, recipients: ['+15551230310'] });
    const sent = await callTool(agent, 'confirm_send', { confirmation: drafted.json.confirmation });
    const id = (sent.json.message as { id: string }).id;
    const asApp = await gateway.request('GET', `/messages/${id}`, { authorization: assistantBasic });
    expect(asApp.body).toMatchObject({ id, recipients: [{ phoneNumber: '+15551230310' }] });
  });

  it('tells a desktop agent why nothing answers when the gateway is not running', {
    timeout: 2 * childStartMs,
  }, async () => {
    const agent = new Client({ name: 'desktop-agent', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      // Port 9 (discard) is closed on a test machine: the connection is refused at once.
      args: ['--import', 'tsx', 'server/cli/main.ts', 'mcp', '--listen', '127.0.0.1:9'],
      env: { PATH: process.env.PATH ?? '', SMSGW_MCP_TOKEN: 'assistant:secret' },
      stderr: 'pipe',
    });
    await expect(agent.connect(transport, { timeout: childStartMs })).rejects.toThrow(
      /the gateway at http:\/\/127\.0\.0\.1:9 did not answer/,
    );
    await agent.close();
  });
});
