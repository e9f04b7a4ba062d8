package io.trimus.run.service.a2a;

import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentSkill;
import io.a2a.spec.HTTPAuthSecurityScheme;
import io.a2a.spec.SecurityScheme;
import io.a2a.spec.TransportProtocol;
import io.trimus.run.repository.agent.Agent;

import java.util.List;
import java.util.Map;

/** The A2A agent card of a published agent: one skill, "run", JSON-RPC, streaming, a company token as bearer. */
public final class AgentCards {
    /** The A2A protocol version Trimus speaks (the SDK's 0.3 line). */
    public static final String PROTOCOL_VERSION = "0.3.0";
    /** The name of the card's security scheme. */
    public static final String BEARER = "bearer";
    static final String VERSION = "1.0.0";
    static final List<String> TEXT = List.of("text/plain");

    private AgentCards() {
    }

    /** The card of {@code agent}, reached at {@code url}. */
    public static AgentCard of(Agent agent, String url) {
        String description = "A Trimus agent (" + agent.adapterType + "): each message starts one run of it, with the"
                + " message's text (or metadata.trimus issue and input) as its input; the task ends with the run's"
                + " output as its artifact.";
        AgentSkill run = new AgentSkill.Builder().id(RunRequestOfMessage.SKILL).name("run")
                .description("Run the agent once on the message's issue and input; the output is the artifact.")
                .tags(List.of("trimus", "run")).inputModes(TEXT).outputModes(TEXT).build();
        return new AgentCard.Builder().name(agent.name).description(description).url(url).version(VERSION)
                .protocolVersion(PROTOCOL_VERSION).preferredTransport(TransportProtocol.JSONRPC.asString())
                .capabilities(new AgentCapabilities.Builder().streaming(true).pushNotifications(false)
                        .stateTransitionHistory(false).build())
                .defaultInputModes(TEXT).defaultOutputModes(TEXT).skills(List.of(run))
                .securitySchemes(Map.<String, SecurityScheme>of(BEARER, new HTTPAuthSecurityScheme.Builder()
                        .scheme("bearer").description("an API token of the agent's company with the member or admin"
                                + " role (Authorization: Bearer trimus_t_…)").build()))
                .security(List.of(Map.of(BEARER, List.of()))).build();
    }
}
