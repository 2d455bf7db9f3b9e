import type { Knex } from 'knex';

/**
 * Billing: plan prices per period in integer minor units, the buyer's
 * company, invoices (and credit notes) with gapless yearly numbers, the
 * payments that settle them and the PayPal webhook events already handled.
 *
 * Numbers come from one counter row per year, locked (SELECT … FOR UPDATE)
 * inside the transaction that records the payment: a rolled-back payment
 * gives its number back, so a crash or a retry never skips or repeats one.
 * A pending invoice has no number yet, only its payment reference, so
 * deleting a mistaken one leaves no gap either.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    // null: the plan is not sold for that period (unless it is the plan's own period, priced by `price`).
    t.integer('price_month_minor').nullable();
    t.integer('price_year_minor').nullable();
  });
  await knex.raw(`update plans set price_month_minor = round(price * 100) where period = 'month'`);
  await knex.raw(`update plans set price_year_minor = round(price * 100) where period = 'year'`);
  await knex.raw('ALTER TABLE plans ADD CONSTRAINT plans_prices_check CHECK (coalesce(price_month_minor, 0) >= 0 AND coalesce(price_year_minor, 0) >= 0)');

  // A plan bought while another runs starts when the current period ends (README "Billing"): until then it waits here.
  await knex.schema.alterTable('plan_subscriptions', (t) => {
    t.integer('next_id_plan').nullable().references('plans.id').onDelete('SET NULL');
    t.date('next_plan_from').nullable();
  });

  await knex.schema.createTable('companies', (t) => {
    t.increments('id');
    t.integer('id_user').notNullable().unique().references('users.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('tax_id', 50).notNullable().defaultTo('');
    t.string('street', 200).notNullable().defaultTo('');
    t.string('city', 100).notNullable().defaultTo('');
    t.string('postal_code', 20).notNullable().defaultTo('');
    t.string('province', 100).notNullable().defaultTo('');
    t.string('country', 100).notNullable().defaultTo('');
    t.string('email', 254).notNullable().defaultTo('');
    t.timestamps(true, true);
  });

  await knex.schema.createTable('invoice_counters', (t) => {
    t.integer('year').primary();
    t.integer('last').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('invoices', (t) => {
    t.increments('id');
    t.integer('id_user').notNullable().references('users.id').onDelete('RESTRICT');
    t.string('kind', 12).notNullable().defaultTo('invoice');
    t.integer('id_credited').nullable().references('invoices.id').onDelete('RESTRICT');
    t.string('number', 20).nullable().unique();
    t.string('status', 10).notNullable().defaultTo('pending');
    t.string('method', 20).notNullable();
    // What the buyer writes on the transfer; unique so a payment names one invoice.
    t.string('reference', 40).notNullable().unique();
    t.integer('id_plan').nullable().references('plans.id').onDelete('SET NULL');
    t.string('plan_name', 100).notNullable();
    t.string('period', 10).notNullable();
    t.date('period_start').notNullable();
    t.date('period_end').notNullable();
    t.string('currency', 3).notNullable();
    t.integer('subtotal_minor').notNullable();
    t.integer('tax_rate_bp').notNullable();
    t.integer('tax_minor').notNullable();
    t.integer('total_minor').notNullable();
    t.jsonb('seller').notNullable();
    t.jsonb('buyer').notNullable();
    t.jsonb('lines').notNullable();
    t.string('paypal_order_id', 64).nullable().unique();
    t.timestamp('paid_at', { useTz: true }).nullable();
    // Server-chosen storage key of the PDF, set by the invoice.generate job.
    t.string('pdf_key', 300).nullable();
    // The status the stored PDF shows: a paid invoice gets a new PDF (with its number) after the pending one.
    t.string('pdf_status', 10).nullable();
    t.timestamps(true, true);
    t.index(['id_user', 'created_at']);
    t.index(['status']);
  });
  await knex.raw(`ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('pending', 'paid', 'void'))`);
  await knex.raw(`ALTER TABLE invoices ADD CONSTRAINT invoices_kind_check CHECK (kind IN ('invoice', 'credit_note'))`);
  await knex.raw(`ALTER TABLE invoices ADD CONSTRAINT invoices_method_check CHECK (method IN ('paypal', 'bank_transfer'))`);
  // A paid invoice always has its number; one credit note per invoice.
  await knex.raw(`ALTER TABLE invoices ADD CONSTRAINT invoices_paid_numbered CHECK (status <> 'paid' OR number IS NOT NULL)`);
  await knex.raw('CREATE UNIQUE INDEX invoices_one_credit_note ON invoices (id_credited) WHERE id_credited IS NOT NULL');

  await knex.schema.createTable('payments', (t) => {
    t.increments('id');
    t.integer('id_invoice').notNullable().references('invoices.id').onDelete('RESTRICT');
    t.string('provider', 20).notNullable();
    // PayPal's capture id, or 'bank:<reference>': the same payment is recorded once.
    t.string('provider_ref', 100).notNullable().unique();
    t.integer('amount_minor').notNullable();
    t.string('currency', 3).notNullable();
    t.integer('recorded_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // One payment settles an invoice.
  await knex.raw('CREATE UNIQUE INDEX payments_one_per_invoice ON payments (id_invoice)');

  await knex.schema.createTable('paypal_webhook_events', (t) => {
    t.string('event_id', 100).primary();
    t.string('event_type', 100).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('paypal_webhook_events');
  await knex.schema.dropTableIfExists('payments');
  await knex.schema.dropTableIfExists('invoices');
  await knex.schema.dropTableIfExists('invoice_counters');
  await knex.schema.dropTableIfExists('companies');
  await knex.schema.alterTable('plan_subscriptions', (t) => {
    t.dropColumn('next_id_plan');
    t.dropColumn('next_plan_from');
  });
  await knex.raw('ALTER TABLE plans DROP CONSTRAINT IF EXISTS plans_prices_check');
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('price_month_minor');
    t.dropColumn('price_year_minor');
  });
}
