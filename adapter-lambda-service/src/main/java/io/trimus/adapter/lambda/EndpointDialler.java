package io.trimus.adapter.lambda;

import io.trimus.adapter.offhost.EndpointAddressPolicy;
import io.trimus.adapter.offhost.HostResolver;
import io.trimus.events.RunState;
import io.vertx.core.Context;

import java.net.InetAddress;
import java.util.function.BiConsumer;

/**
 * Which address a lambda call dials: an IP literal as it is (judged when the run was validated), a host name resolved
 * once on a worker thread with every address judged by the {@link EndpointAddressPolicy}. The call then dials exactly
 * the address that was judged, so a DNS answer that changes later (rebinding) cannot redirect it.
 */
final class EndpointDialler {

    private final Context context;
    private final EndpointAddressPolicy policy;
    private final HostResolver resolver;
    private final CallState.Ending ending;

    EndpointDialler(Context context, EndpointAddressPolicy policy, HostResolver resolver,
                    CallState.Ending ending) {
        this.context = context;
        this.policy = policy;
        this.resolver = resolver;
        this.ending = ending;
    }

    /** Finds the address to dial and hands it to {@code dial} on the context, or ends the call REJECTED or FAILED. */
    void dial(CallState call, BiConsumer<CallState, InetAddress> dial) {
        if (call.spec.literal() != null) {
            dial.accept(call, call.spec.literal());
            return;
        }
        String host = call.spec.config().host();
        context.<InetAddress[]>executeBlocking(() -> resolver.resolve(host), false).onComplete(resolved -> {
            if (call.finished) {
                return;
            }
            if (resolved.failed()) {
                ending.finish(call, LambdaContract.Outcome.of(RunState.FAILED, "the endpoint's host " + host
                        + " does not resolve"));
                return;
            }
            EndpointAddressPolicy.Verdict verdict = policy.checkAll(host, resolved.result());
            if (!verdict.allowed()) {
                ending.finish(call, LambdaContract.Outcome.of(RunState.REJECTED, refusal(verdict.reason())));
                return;
            }
            dial.accept(call, resolved.result()[0]);
        });
    }

    /** Why an endpoint is refused, and what would allow it. */
    static String refusal(String reason) {
        return "the endpoint is refused: " + reason + "; a lambda endpoint must be a public address unless"
                + " " + LambdaCaller.ALLOW_PRIVATE + " covers it";
    }
}
