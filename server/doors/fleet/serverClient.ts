import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type {
  MobileMessage,
  MobilePatchMessageItem,
  MobileRegisterRequest,
  MobileRegisterResponse,
  MobileUpdateRequest,
  MobileWebhook,
} from './mobileApi.js';
import { endpoint } from './serverAddress.js';

/** A request that hangs this long is given up (the poll or the outbox tries again later). */
const requestTimeoutMs = 20_000;

/**
 * The calls a device makes on the private server, one method per route of upstream's
 * `handlers/mobile.go` and `handlers/messages/mobile.go`. Every failure is a GatewayError:
 * FleetRejected (401/403: the token is no longer valid), FleetUnreachable (network, 5xx, 429:
 * try later), FleetProtocol (anything else).
 */
export class ServerClient {
  constructor(private readonly baseUrl: string) {}

  /** `POST /device` with the registration credential's Authorization header. */
  async register(authorization: string, request: MobileRegisterRequest): Promise<MobileRegisterResponse> {
    const response = await this.call('POST', '/device', authorization, request);
    const body = (await response.json()) as Partial<MobileRegisterResponse>;
    if (typeof body.id !== 'string' || typeof body.token !== 'string' || typeof body.login !== 'string') {
      throw new GatewayError(ErrorCode.FleetProtocol, 'POST /device answered without id, token and login');
    }
    return {
      id: body.id,
      token: body.token,
      login: body.login,
      ...(body.password ? { password: body.password } : {}),
    };
  }

  /** `PATCH /device`: this device's SIM cards (handlers/mobile.go patchDevice; 204). */
  async patchDevice(deviceToken: string, request: MobileUpdateRequest): Promise<void> {
    await this.call('PATCH', '/device', `Bearer ${deviceToken}`, request);
  }

  /**
   * `GET /message?order=`: the messages the server holds for this device, Pending or
   * Cancelling, newest first (`lifo`, the server's default) or oldest first (`fifo`), as the
   * app asks in its processing order (handlers/messages/params.go mobileGetQueryParams).
   */
  async pendingMessages(deviceToken: string, order: 'lifo' | 'fifo'): Promise<MobileMessage[]> {
    const response = await this.call('GET', `/message?order=${order}`, `Bearer ${deviceToken}`);
    const body: unknown = await response.json();
    if (!Array.isArray(body))
      throw new GatewayError(ErrorCode.FleetProtocol, 'GET /message answered no list');
    return body as MobileMessage[];
  }

  /** `PATCH /message`: state changes, applied by the server in array order. */
  async patchMessages(deviceToken: string, items: readonly MobilePatchMessageItem[]): Promise<void> {
    await this.call('PATCH', '/message', `Bearer ${deviceToken}`, items);
  }

  /** `GET /webhooks`: the webhooks the server wants this device to call. */
  async webhooks(deviceToken: string): Promise<MobileWebhook[]> {
    const response = await this.call('GET', '/webhooks', `Bearer ${deviceToken}`);
    const body: unknown = await response.json();
    if (!Array.isArray(body))
      throw new GatewayError(ErrorCode.FleetProtocol, 'GET /webhooks answered no list');
    return body as MobileWebhook[];
  }

  /** `GET /settings`: `smsgateway.DeviceSettings` of the device's user. */
  async settings(deviceToken: string): Promise<unknown> {
    const response = await this.call('GET', '/settings', `Bearer ${deviceToken}`);
    return response.json();
  }

  /** `GET /events`: the open SSE response; the caller reads and closes its body. */
  openEvents(deviceToken: string, signal: AbortSignal): Promise<Response> {
    return this.call('GET', '/events', `Bearer ${deviceToken}`, undefined, signal, 'text/event-stream');
  }

  private async call(
    method: string,
    path: string,
    authorization: string,
    json?: unknown,
    signal: AbortSignal = AbortSignal.timeout(requestTimeoutMs),
    accept = 'application/json',
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(endpoint(this.baseUrl, path), {
        method,
        headers: {
          authorization,
          accept,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        signal,
      });
    } catch (error) {
      throw new GatewayError(ErrorCode.FleetUnreachable, `${method} ${path}: ${describeFailure(error)}`, {
        cause: error,
      });
    }
    if (response.ok) return response;
    const detail = await response.text().catch(() => '');
    const message = `${method} ${path} answered ${response.status}${detail ? `: ${detail.slice(0, 200)}` : ''}`;
    if (response.status === 401 || response.status === 403) {
      throw new GatewayError(ErrorCode.FleetRejected, message);
    }
    if (response.status >= 500 || response.status === 429) {
      throw new GatewayError(ErrorCode.FleetUnreachable, message);
    }
    throw new GatewayError(ErrorCode.FleetProtocol, message);
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
