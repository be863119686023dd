import { Fragment, type ReactNode, type Ref, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** One column: its header and what each row shows in it. */
export interface TableColumn<Row> {
  header: string;
  /** Said to screen readers only (a column of buttons): no header cell is ever empty. */
  headerHidden?: boolean;
  cell: (row: Row, index: number) => ReactNode;
  className?: string;
}

/** A row opened under its own (a message's detail): spans every column. */
export interface OpenedRow {
  content: ReactNode;
  /** To scroll it into view when it opens. */
  ref?: Ref<HTMLTableRowElement>;
}

/**
 * Every list table of the window: named for screen readers, a header cell for each column
 * (hidden words where the column holds buttons), a stable key per row. `false` in `columns`
 * leaves a column out (one only some people may use).
 */
export function DataTable<Row>(props: {
  label: string;
  columns: readonly (TableColumn<Row> | false)[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  compact?: boolean;
  /** Attributes of a row: a class, the id tests and live updates find it by. */
  rowAttributes?: (row: Row) => { className?: string; 'data-message-id'?: string };
  /** A row to open under a row, or undefined. */
  opened?: (row: Row) => OpenedRow | undefined;
}) {
  const columns = props.columns.filter((column): column is TableColumn<Row> => column !== false);
  const { ref, scrolls } = useScrollsSideways();
  return (
    // A table wider than its part of the window scrolls within itself: a keyboard must reach it
    // then (WCAG 2.1.1, axe scrollable-region-focusable), and only then, to add no needless Tab.
    <table
      className={props.compact ? 'table compact' : 'table'}
      aria-label={props.label}
      ref={ref}
      tabIndex={scrolls ? 0 : undefined}
    >
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.headerHidden ? <span className="visually-hidden">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row, index) => {
          const opened = props.opened?.(row);
          return (
            <Fragment key={props.rowKey(row)}>
              <tr {...props.rowAttributes?.(row)}>
                {columns.map((column) => (
                  <td key={column.header} className={column.className}>
                    {column.cell(row, index)}
                  </td>
                ))}
              </tr>
              {opened && (
                <tr className="detail-row" ref={opened.ref}>
                  <td colSpan={columns.length}>{opened.content}</td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}

/** Whether the table is wider than its box (rows changed, or the window was resized). */
function useScrollsSideways() {
  const ref = useRef<HTMLTableElement>(null);
  const [scrolls, setScrolls] = useState(false);
  // After every render: its rows may have made it wider.
  useLayoutEffect(() => {
    if (ref.current) setScrolls(widerThanBox(ref.current));
  });
  useEffect(() => {
    const table = ref.current;
    if (!table) return undefined;
    const observer = new ResizeObserver(() => setScrolls(widerThanBox(table)));
    observer.observe(table);
    return () => observer.disconnect();
  }, []);
  return { ref, scrolls };
}

function widerThanBox(element: HTMLElement): boolean {
  return element.scrollWidth > element.clientWidth;
}
