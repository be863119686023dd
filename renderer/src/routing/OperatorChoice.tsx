import type { ReactNode } from 'react';
import { describeError } from '../api/apiClient.js';
import { useApp } from '../appContext.js';
import { countryOptions } from '../settings/settingCatalogue.js';
import { useResource } from '../useResource.js';

const countries = countryOptions();

/**
 * An operator rule's country and operator: the operators offered are those the gateway's data
 * names for the chosen country (GET /gateway/v1/routing/operators), so a rule names one the
 * numbers can match.
 */
export function OperatorChoice(props: {
  country: string;
  operator: string;
  onCountry: (country: string) => void;
  onOperator: (operator: string) => void;
  countryError: ReactNode;
  operatorError: ReactNode;
}) {
  const { api } = useApp();
  const { country, operator } = props;
  const operators = useResource(
    () => (country === '' ? Promise.resolve([]) : api.routingOperators(country)),
    [api, country],
  );
  const known = operators.data ?? [];
  // A stored rule's operator stays choosable while the list loads, or if the data dropped it.
  const offered = operator === '' || known.includes(operator) ? known : [operator, ...known];
  return (
    <>
      <label>
        Country
        <select
          value={country}
          aria-invalid={props.countryError !== null}
          onChange={(event) => {
            props.onCountry(event.target.value);
            props.onOperator('');
          }}
        >
          <option value="">Choose a country</option>
          {countries.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {props.countryError}
      <label>
        Operator
        <select
          value={operator}
          aria-invalid={props.operatorError !== null}
          disabled={country === ''}
          onChange={(event) => props.onOperator(event.target.value)}
        >
          <option value="">{operators.loading ? 'Loading operators…' : 'Choose an operator'}</option>
          {offered.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <p className="hint">
        The operator a number’s range belongs to (Google libphonenumber’s data). A number moved to another
        operator keeps its range’s operator.
      </p>
      {operators.error !== undefined ? (
        <p className="field-error" role="alert">
          {describeError(operators.error)}
        </p>
      ) : (
        country !== '' &&
        operators.data?.length === 0 && <p className="hint">The data names no operator for this country.</p>
      )}
      {props.operatorError}
    </>
  );
}
