/**
 * A run's secrets: the dispatch key ({@link io.trimus.adapter.run.secrets.DispatchKeys}), opening what run-service
 * sealed for the run ({@link io.trimus.adapter.run.secrets.RunSecrets#open}) and the sandbox's view of them, masked
 * ones replaced by surrogates. Imports only run and config; never an executor.
 */
package io.trimus.adapter.run.secrets;
