// A projector thread whose start fails (test/infra/projector-thread.spec.ts).
throw new Error('no database here');
