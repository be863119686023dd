import { parseTcpAddress, tcpAddressForm } from '../../contract/domain/tcpAddress.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { Storage } from '../../store/storage.js';
import type { ModemPool } from '../pool/modemPool.js';
import type { PoolMember } from '../pool/poolMember.js';
import { type SerialAccess, serialModemSource } from '../pool/serialModemSource.js';

export interface NetworkModems {
  /** The kept addresses, opened at this start. */
  readonly addresses: readonly string[];
  /**
   * Adds the modem behind the serial server at `tcp://host:port` and keeps the address for next
   * starts; a malformed address is refused (ValidationFailed naming `path`). An address given up
   * ('not-a-modem') is tried again.
   */
  add(address: string): Promise<PoolMember>;
}

interface NetworkModemsDocument {
  /** `tcp://host:port` addresses added on the Modems screen, oldest first. */
  added: string[];
}

/**
 * The serial server sets the line speed (ser2net's own configuration); the socket carries none.
 * Kept only because a modem source is built from a path and a rate.
 */
const unusedBaudRate = 115_200;

/**
 * Modems behind serial-over-IP servers added with POST /gateway/v1/modems (`--modem tcp://` ones
 * are the options' business). Their addresses are kept in the `network-modems` document and each
 * is opened again at start, in the background: a server that is down leaves its modem offline
 * and retrying, as a configured modem's would, without holding up the API. Forgetting the device
 * (DELETE /devices/{id}) forgets its address.
 */
export async function startNetworkModems(deps: {
  storage: Storage;
  pool: ModemPool;
  serial: SerialAccess;
  logger: Logger;
}): Promise<NetworkModems> {
  const { pool, serial, logger } = deps;
  const document = await deps.storage.openDocument<NetworkModemsDocument>('network-modems', { added: [] });
  const members = new Map<string, PoolMember>();
  const open = async (address: string): Promise<PoolMember> => {
    const member = await pool.addModem(
      serialModemSource(serial, { path: address, baudRate: unusedBaudRate }),
    );
    members.set(address, member);
    return member;
  };
  for (const address of document.data.added) {
    void open(address).catch((error: unknown) =>
      logger.error('could not open the modem behind a serial server', { address, error }),
    );
  }
  pool.onChange((deviceId) => {
    if (pool.get(deviceId)) return;
    for (const [address, member] of members) {
      if (member.deviceId !== deviceId) continue;
      members.delete(address);
      void document
        .update((data) => {
          data.added = data.added.filter((kept) => kept !== address);
        })
        .catch((error: unknown) => logger.warn('could not forget the network modem', { address, error }));
    }
  });
  return {
    get addresses() {
      return document.data.added;
    },
    async add(address) {
      if (!parseTcpAddress(address)) {
        throw new GatewayError(ErrorCode.ValidationFailed, `path: must be ${tcpAddressForm}`, {
          field: 'path',
        });
      }
      const givenUp = members.get(address);
      if (givenUp?.status === 'not-a-modem') {
        await givenUp.start();
        return givenUp;
      }
      const member = await open(address);
      if (!document.data.added.includes(address)) {
        await document.update((data) => {
          data.added.push(address);
        });
      }
      return member;
    },
  };
}
