/**
 * HTTP in, DTOs out: companies, agents, runs and their summary, secrets, workers, worker tags and the audit log; each
 * resource turns a request into one service call and holds no rules (A2A and identity have sub-packages). Entry point:
 * {@link io.trimus.run.rest.RunResource}. Never imports messaging or a repository (it reads the entities services
 * return).
 */
package io.trimus.run.rest;
