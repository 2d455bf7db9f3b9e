import { describe, expect, it } from 'vitest';
import { formMessages } from '@sitewalk/proto';
import { ENTITY_FORM_TEXTS } from './edit-form-texts';

describe('the form messages marked for translation', () => {
  it('are exactly the SPEC §8 messages the forms show', () => {
    for (const [entity, texts] of Object.entries(ENTITY_FORM_TEXTS)) {
      expect([...texts].sort()).toEqual(Object.values(formMessages(entity)).sort());
    }
  });
});
