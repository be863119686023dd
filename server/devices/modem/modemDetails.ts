import type {
  DeviceStatusReason,
  ModemDetails,
  ModemStatus,
  SimCardInfo,
} from '../../contract/domain/device.js';
import type { ModemSource } from '../pool/serialModemSource.js';
import type { HealthReading } from './modemHealth.js';
import type { SimIdentity } from './modemSetup.js';
import type { ModemKnowledge } from './modemState.js';
import { combinedRegistration } from './networkState.js';

/** What `describeModem` shows: the driver's knowledge, with its port and status. */
export interface ModemFacts extends Omit<ModemKnowledge, 'quirks' | 'setup'> {
  source: ModemSource;
  status: ModemStatus;
  statusDetail?: string | undefined;
  statusReason?: DeviceStatusReason | undefined;
}

/** The modem as the API shows it; optional fields only when known. Copies, never shares. */
export function describeModem(facts: ModemFacts): ModemDetails {
  const { source, radio } = facts;
  const { registrations, ...health } = facts.health;
  const details: ModemDetails = {
    port: source.port,
    simulated: source.simulated ?? false,
    status: facts.status,
    ...facts.identity,
    ...health,
  };
  const { registration } = combinedRegistration(registrations);
  if (registration) details.registration = registration;
  if (radio.supported) details.radioSupport = [...radio.supported];
  if (radio.smsService) details.smsService = radio.smsService;
  if (radio.smsServiceOptions.length > 0) details.smsServiceOptions = [...radio.smsServiceOptions];
  if (facts.statusDetail) details.statusDetail = facts.statusDetail;
  if (facts.statusReason) details.statusReason = facts.statusReason;
  if (source.usb) details.usb = { ...source.usb };
  if (facts.sim.smsc) details.smsc = facts.sim.smsc;
  if (facts.storageUse.length > 0) details.messageStorage = facts.storageUse.map((use) => ({ ...use }));
  if (facts.reportsRefused) details.reportsRefused = { ...facts.reportsRefused };
  return details;
}

/** A modem has one SIM slot: slot 0, SIM number 1. */
export function describeSimCard(sim: SimIdentity, health: HealthReading): SimCardInfo {
  const card: SimCardInfo = { slotIndex: 0, simNumber: 1 };
  if (sim.phoneNumber) card.phoneNumber = sim.phoneNumber;
  if (health.operator) card.carrierName = health.operator;
  if (sim.iccid) card.iccid = sim.iccid;
  return card;
}
