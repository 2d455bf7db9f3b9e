import { useCallback, useRef } from 'react';
import { useForm, useWatch, type DefaultValues, type FieldValues, type Path, type PathValue, type Resolver } from 'react-hook-form';
import { fieldMessages } from './edit-form-model';

/**
 * A form on react-hook-form whose only rules are `rules` (proto's schemas
 * through requestRules): checked on submit, and changing a field clears that
 * field's message and only that one (SPEC §5). The rules of the latest render
 * apply, so they may follow the settings or the record. Gives the values as
 * typed and one message (a translation key) per field.
 */
export function useRulesForm<V extends FieldValues>(rules: Resolver<V>, initial: V) {
  const rulesRef = useRef(rules);
  rulesRef.current = rules;
  const form = useForm<V>({
    defaultValues: initial as DefaultValues<V>,
    resolver: (values, context, options) => rulesRef.current(values, context, options),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    // The fields are controlled components, not registered inputs: the forms place the focus themselves.
    shouldFocusError: false,
  });
  const values = useWatch({ control: form.control }) as V;
  const { setValue, clearErrors } = form;
  const set = useCallback(
    <K extends keyof V & string>(field: K, value: V[K]) => {
      setValue(field as unknown as Path<V>, value as PathValue<V, Path<V>>);
      clearErrors(field as unknown as Path<V>);
    },
    [setValue, clearErrors],
  );
  return { form, values, errors: fieldMessages<V>(form.formState.errors as Record<string, { message?: unknown } | undefined>), set };
}
