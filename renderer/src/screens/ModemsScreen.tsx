import { useEffect, useState } from 'react';
import { defaultSerialGroup, joinGroupCommand } from '../../../server/contract/domain/portRefusal.js';
import type { DeviceCapabilityName, DeviceRecord, SimPlanView } from '../api/types.js';
import { useApp } from '../appContext.js';
import { ModemStatusBadge, SignalBars } from '../components/Badges.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { CopyButton } from '../components/CopyButton.js';
import { RoleLimit, Writes } from '../components/RoleLimit.js';
import { EmptyState, ErrorNote, FormResult, Loading } from '../components/StatusViews.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { ComposeForm } from '../messages/ComposeForm.js';
import { AddModemPanel } from '../modems/AddModemPanel.js';
import { AndroidPhonePanel } from '../modems/AndroidPhonePanel.js';
import { AtLogView } from '../modems/AtLogView.js';
import { HiLinkPanel } from '../modems/HiLinkPanel.js';
import { ModemFigures } from '../modems/ModemFigures.js';
import { ModemNameForm } from '../modems/ModemNameForm.js';
import { ModemOperationsForm } from '../modems/ModemOperationsForm.js';
import { lastSeenText, modemLabel, neverSeen } from '../modems/modemLabel.js';
import { NetworkModemPanel } from '../modems/NetworkModemPanel.js';
import { PhoneHealthLine } from '../modems/PhoneHealthLine.js';
import { PinForm } from '../modems/PinForm.js';
import { SimCapNotes } from '../modems/SimCapNotes.js';
import { SimPlanPanel } from '../modems/SimPlanPanel.js';
import { SimulateFailureForm } from '../modems/SimulateFailureForm.js';
import { SimulateIncomingForm } from '../modems/SimulateIncomingForm.js';
import { SmsServiceChoice } from '../modems/SmsServiceChoice.js';
import { UssdPanel } from '../modems/UssdPanel.js';
import { useAction } from '../useAction.js';
import { type Resource, useResource } from '../useResource.js';
import { useRevealOnOpen } from '../useRevealOnOpen.js';

export function ModemsScreen() {
  const { api } = useApp();
  const devices = useResource(() => api.devices(), [api]);
  const status = useResource(() => api.status(), [api]);
  const plans = useResource(() => api.plans(), [api]);
  const [adding, setAdding] = useState(false);
  useLiveEvent('device', devices.reload);
  // Sends use the caps up and resets lift them without an event of their own.
  const { reload: reloadPlans } = plans;
  useEffect(() => {
    const timer = setInterval(reloadPlans, planRefreshMs);
    return () => clearInterval(timer);
  }, [reloadPlans]);
  const hilinkAdapter = status.data?.hilinkAdapter;
  const onHiLinkAdded = () => {
    devices.reload();
    status.reload();
  };

  return (
    <>
      <header className="page-head">
        <h1>Modems</h1>
        <div className="head-actions">
          <Writes scope="settings:write">
            <button
              type="button"
              className="primary"
              aria-expanded={adding}
              onClick={() => setAdding(!adding)}
            >
              {adding ? 'Close' : 'Add a modem'}
            </button>
          </Writes>
        </div>
      </header>
      <RoleLimit scope="settings:write" what="the modems and their SIM plans" />
      {adding && <AddModemPanel onAdded={devices.reload} />}
      {adding && <NetworkModemPanel onAdded={devices.reload} />}
      {adding && <AndroidPhonePanel onAdded={devices.reload} />}
      {(adding || hilinkAdapter) && (
        <HiLinkPanel {...(hilinkAdapter ? { detected: hilinkAdapter } : {})} onAdded={onHiLinkAdded} />
      )}
      {devices.loading && !devices.data && <Loading what="modems" />}
      {devices.error !== undefined && <ErrorNote error={devices.error} onRetry={devices.reload} />}
      {devices.data && devices.data.length === 0 && (
        <section className="panel">
          <EmptyState title="No modem is connected.">
            Plug in a USB GSM modem and choose “Add a modem” to pick its serial port.
          </EmptyState>
        </section>
      )}
      {devices.data?.map((device) => (
        <ModemPanel
          key={device.id}
          device={device}
          devices={devices.data}
          plans={plans}
          onChanged={devices.reload}
        />
      ))}
    </>
  );
}

const planRefreshMs = 15_000;

type Section = 'none' | 'test' | 'at-log' | 'operations' | 'plan' | 'name' | 'simulate' | 'simulate-failure';

function ModemPanel(props: {
  device: DeviceRecord;
  devices: DeviceRecord[] | undefined;
  plans: Resource<SimPlanView[]>;
  onChanged: () => void;
}) {
  const { api } = useApp();
  const { device } = props;
  const modem = device.modem;
  const [section, setSection] = useState<Section>('none');
  const opened = useRevealOnOpen<HTMLDivElement>(
    section === 'simulate' || section === 'simulate-failure' ? section : undefined,
  );
  const removal = useAction();
  const toggle = (next: Section) => setSection(section === next ? 'none' : next);
  // The panels follow what the device says it can do (`modem.capabilities`), not its kind.
  const can = (capability: DeviceCapabilityName) => modem?.capabilities?.includes(capability) ?? false;
  const pinNeeded =
    can('simPin') && (modem?.status === 'sim-pin-required' || modem?.status === 'sim-pin-wrong');

  async function remove() {
    const removed = await removal.run(async () => {
      await api.removeDevice(device.id);
      return undefined;
    });
    if (removed) props.onChanged();
  }

  const unseen = neverSeen(device);
  // A device that never answered has no SIM facts: only what was read is shown.
  const sims = unseen ? [] : device.simCards;
  return (
    <section className="panel modem-panel" aria-label={`Modem ${modemLabel(device)}`}>
      <div className="panel-head">
        <h2>
          {modemLabel(device)} <ModemStatusBadge status={modem?.status} reason={modem?.statusReason} />
        </h2>
        <SignalBars bars={modem?.signal?.bars} dbm={modem?.signal?.dbm} />
      </div>
      {modem?.simulated && (
        <p className="note note-warn">
          This is a simulated modem: nothing is really sent over the mobile network.
        </p>
      )}
      {modem?.statusDetail && <p className="muted">{modem.statusDetail}</p>}
      <SimCapNotes plans={props.plans.data} deviceId={device.id} />
      {modem?.phone && <PhoneHealthLine phone={modem.phone} deviceId={device.id} sendsMms={can('mms')} />}
      {modem?.limitations && modem.limitations.length > 0 && (
        <div className="note note-warn">
          <p>
            <strong>Limits of this modem:</strong>
          </p>
          <ul>
            {modem.limitations.map((limitation) => (
              <li key={limitation}>{limitation}</li>
            ))}
          </ul>
        </div>
      )}
      {modem?.statusReason === 'port-access-denied' && (
        <div className="note note-error">
          <p>
            <strong>The gateway may not open this serial port.</strong> On Linux, serial ports belong to the
            <code> {defaultSerialGroup}</code> group. Add your user to it, then log out and back in:
          </p>
          <p>
            <code className="command">{joinGroupCommand(defaultSerialGroup)}</code>{' '}
            <CopyButton text={joinGroupCommand(defaultSerialGroup)} />
          </p>
        </div>
      )}
      {pinNeeded && (
        <PinForm
          deviceId={device.id}
          wrongBefore={modem?.status === 'sim-pin-wrong'}
          onDone={props.onChanged}
        />
      )}
      <dl className="facts facts-wide">
        <dt>Model</dt>
        <dd>{[modem?.manufacturer, modem?.model].filter(Boolean).join(' ') || '—'}</dd>
        <dt>Firmware</dt>
        <dd>{modem?.revision ?? '—'}</dd>
        <dt>IMEI</dt>
        <dd className="mono">{modem?.imei ?? '—'}</dd>
        <dt>Port</dt>
        <dd className="mono">{modem?.port ?? '—'}</dd>
        <dt>Operator</dt>
        <dd>{modem?.operator ?? '—'}</dd>
        <dt>Registration</dt>
        <dd>{modem?.registration ?? '—'}</dd>
        <dt>Radio</dt>
        <dd>
          {modem?.radio ?? '—'}
          {modem?.radioSupport && ` (speaks ${modem.radioSupport.join(', ')})`}
        </dd>
        <dt>SMS over</dt>
        <dd>
          {can('smsService') && modem?.smsServiceOptions && modem.smsServiceOptions.length > 0 ? (
            <SmsServiceChoice
              deviceId={device.id}
              current={modem.smsService}
              options={modem.smsServiceOptions}
              onDone={props.onChanged}
            />
          ) : (
            '—'
          )}
        </dd>
        <dt>Signal</dt>
        <dd>
          {modem?.signal
            ? `${modem.signal.bars}/4${modem.signal.dbm !== undefined ? `, ${modem.signal.dbm} dBm` : ''} (RSSI ${modem.signal.rssi})`
            : '—'}
        </dd>
        <dt>SIM state</dt>
        <dd>{modem?.simState ?? '—'}</dd>
        <dt>SMSC</dt>
        <dd className="mono">{modem?.smsc ?? '—'}</dd>
        <dt>Last seen</dt>
        <dd>{lastSeenText(device, Date.now())}</dd>
        {sims.map((sim) => (
          <SimFacts key={sim.simNumber} sim={sim} />
        ))}
      </dl>
      <div className="form-actions">
        <Writes scope="messages:send">
          <button type="button" aria-expanded={section === 'test'} onClick={() => toggle('test')}>
            Test send
          </button>
        </Writes>
        {can('atLog') && (
          <button type="button" aria-expanded={section === 'at-log'} onClick={() => toggle('at-log')}>
            AT log
          </button>
        )}
        {(can('ussd') || can('calls')) && (
          <button type="button" aria-expanded={section === 'operations'} onClick={() => toggle('operations')}>
            Balance &amp; calls
          </button>
        )}
        <button type="button" aria-expanded={section === 'plan'} onClick={() => toggle('plan')}>
          SIM plan
        </button>
        <Writes scope="settings:write">
          <button type="button" aria-expanded={section === 'name'} onClick={() => toggle('name')}>
            Rename
          </button>
          {modem?.simulated && (
            <button type="button" aria-expanded={section === 'simulate'} onClick={() => toggle('simulate')}>
              Simulate incoming SMS
            </button>
          )}
          {modem?.simulated && (
            <button
              type="button"
              aria-expanded={section === 'simulate-failure'}
              onClick={() => toggle('simulate-failure')}
            >
              Simulate a failed send
            </button>
          )}
        </Writes>
        <Writes scope="devices:delete">
          <ConfirmButton
            label="Remove"
            question={`Remove ${modemLabel(device)}? Messages waiting for it go to other modems.`}
            confirmLabel="Yes, remove"
            onConfirm={() => void remove()}
          />
        </Writes>
        <FormResult result={removal.result} />
      </div>
      {/* Opened sections sit under the buttons, above the panels that fill in as they load, so
          what a click opened and revealed is not pushed below the fold afterwards. */}
      {section === 'test' && (
        <div className="subpanel">
          <h3>Test send through {modemLabel(device)}</h3>
          <ComposeForm
            devices={props.devices}
            deviceId={device.id}
            idPrefix={`test-${device.id}`}
            compact
            onSent={() => undefined}
          />
        </div>
      )}
      {section === 'at-log' && <AtLogView deviceId={device.id} />}
      {section === 'operations' && <ModemOperationsForm deviceId={device.id} onSaved={props.onChanged} />}
      {section === 'plan' && (
        <SimPlanPanel
          deviceId={device.id}
          simNumbers={sims.length > 0 ? sims.map((sim) => sim.simNumber) : [1]}
          plans={props.plans}
        />
      )}
      {section === 'name' && (
        <div className="subpanel">
          <h3>Name of {modemLabel(device)}</h3>
          <ModemNameForm device={device} onDone={props.onChanged} />
        </div>
      )}
      {section === 'simulate-failure' && (
        <div className="subpanel" ref={opened}>
          <h3>A failed send through {modemLabel(device)}</h3>
          <SimulateFailureForm deviceId={device.id} />
        </div>
      )}
      {section === 'simulate' && (
        <div className="subpanel" ref={opened}>
          <h3>An SMS to {modemLabel(device)} from a simulated phone</h3>
          <SimulateIncomingForm deviceId={device.id} />
        </div>
      )}
      {can('ussd') && (
        <UssdPanel deviceId={device.id} modemName={modemLabel(device)} balance={modem?.balance} />
      )}
      <ModemFigures device={device} />
    </section>
  );
}

function SimFacts(props: { sim: DeviceRecord['simCards'][number] }) {
  const { sim } = props;
  return (
    <>
      <dt>SIM {sim.simNumber}</dt>
      <dd>
        {[sim.phoneNumber, sim.carrierName].filter(Boolean).join(' · ') || 'Inserted'}
        {sim.iccid && (
          <>
            {' '}
            · ICCID <span className="mono">{sim.iccid}</span>
          </>
        )}
      </dd>
    </>
  );
}
