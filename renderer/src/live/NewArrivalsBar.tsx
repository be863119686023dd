/**
 * "3 new messages — show": new items wait behind this bar instead of pushing the rows the user
 * is reading or pointing at (see `livePage.ts`). Announced politely to screen readers.
 */
export function NewArrivalsBar(props: { count: number; noun: string; onShow: () => void }) {
  const { count, noun } = props;
  return (
    <div className="arrivals-bar" aria-live="polite">
      {count > 0 && (
        <button type="button" onClick={props.onShow}>
          {count.toLocaleString()} new {noun}
          {count === 1 ? '' : 's'} — show
        </button>
      )}
    </div>
  );
}
