import type { FieldValues, Resolver } from 'react-hook-form';
import { fieldMessages, type FieldErrors } from './edit-form-model';

/** For unit tests: the message per field that a form's rules give for `values`, as the form shows them. */
export async function ruleMessages<V extends FieldValues>(rules: Resolver<V>, values: V): Promise<FieldErrors<V>> {
  const { errors } = await rules(values, undefined, { fields: {}, shouldUseNativeValidation: false });
  return fieldMessages<V>(errors as Record<string, { message?: unknown } | undefined>);
}
