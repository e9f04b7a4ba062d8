-- adapter_config is JSON, so the database keeps it as JSON: validated on write, mapped to a JSON tree on read.
alter table agent alter column adapter_config type jsonb using adapter_config::jsonb;
