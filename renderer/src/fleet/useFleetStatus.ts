import { useEffect } from 'react';
import type { FleetStatusView } from '../api/types.js';
import { useApp } from '../appContext.js';
import { type Resource, useResource } from '../useResource.js';

/** How often the fleet link's state is read again: it changes on its own (server down, back). */
const refreshMs = 5_000;

/** Fleet mode's part of GET /gateway/v1/status, kept fresh. */
export function useFleetStatus(): Resource<FleetStatusView | undefined> {
  const { api } = useApp();
  const status = useResource(async () => (await api.status()).fleet, [api]);
  const { reload } = status;
  useEffect(() => {
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [reload]);
  return status;
}

export const fleetStateLabels: Record<
  NonNullable<FleetStatusView['state']>,
  { label: string; tone: string }
> = {
  registering: { label: 'Registering…', tone: 'neutral' },
  connected: { label: 'Connected', tone: 'ok' },
  reconnecting: { label: 'Reconnecting…', tone: 'warn' },
  rejected: { label: 'Token rejected', tone: 'error' },
};
