package io.trimus.adapter.run.secrets;

import io.trimus.adapter.run.RunRejected;
import io.trimus.events.RunRequested;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.SecretBox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Opens the secrets a run request carries, sealed by run-service for that company, agent and run under the dispatch
 * key. The service starts without a key (a docker-only deployment needs none), but a malformed key stops it at boot.
 */
@ApplicationScoped
public class RunSecrets {
    private final Optional<DispatchSecrets> dispatch;

    @Inject
    public RunSecrets(DispatchKeys keys) {
        this.dispatch = keys.secrets();
    }

    /**
     * The run's secrets in the clear, by the variable they become.
     *
     * @throws RunRejected when they cannot be opened: no key here, or another key than run-service's
     */
    public Map<String, String> open(RunRequested run) {
        if (run.secrets().isEmpty()) {
            return Map.of();
        }
        if (dispatch.isEmpty()) {
            throw new RunRejected("the run carries secrets but neither TRIMUS_ENCRYPTION_KEY nor TRIMUS_DISPATCH_KEY"
                    + " is set on the adapter service; set one to run-service's value");
        }
        try {
            return dispatch.get().open(run.companyId(), run.agentId(), run.runId(), run.secrets());
        } catch (SecretBox.WrongKeyException e) {
            throw new RunRejected("the run's secrets do not open with this adapter service's TRIMUS_ENCRYPTION_KEY /"
                    + " TRIMUS_DISPATCH_KEY: it must be run-service's key (or the dispatch key derived from it)");
        }
    }

    /**
     * Of the opened secrets, the variables an agent's configuration declares, each of which must be there.
     *
     * @throws RunRejected naming the first declared variable the run does not carry
     */
    public static Map<String, String> declared(Map<String, String> opened, Collection<String> variables) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String variable : variables) {
            String value = opened.get(variable);
            if (value == null) {
                throw new RunRejected("the run carries no " + variable + "; run-service adds it from the company's"
                        + " secrets named in the agent's secret_env");
            }
            env.put(variable, value);
        }
        return Collections.unmodifiableMap(env);
    }
}
