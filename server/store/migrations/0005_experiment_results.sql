-- Experiment results (issue 16, CONTROL-CENTER §2.8, §4): the exposures of an experiment and each
-- visitor's events after exposure are read by index. Same SQL on PGlite and PostgreSQL.
CREATE INDEX events_experiment_idx ON events ((body #>> '{properties,page,experiment,id}'), anonymous_id)
  WHERE body #> '{properties,page,experiment}' IS NOT NULL;
CREATE INDEX events_anonymous_ts_idx ON events (anonymous_id, client_ts);
