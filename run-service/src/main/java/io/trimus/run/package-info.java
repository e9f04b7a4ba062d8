/**
 * run-service: the companies, agents, runs, company secrets, workers, identity and audit log of Trimus, a CRUD
 * service by role: rest → service → repository, messaging → service, config under all (PackageDependencyTest).
 * Entry points: {@link io.trimus.run.rest.RunResource} (HTTP), {@link io.trimus.run.messaging.RunStatusConsumer}
 * (Kafka). Never imports another service's code (io.trimus.adapter, io.trimus.egress, io.trimus.admin).
 */
package io.trimus.run;
