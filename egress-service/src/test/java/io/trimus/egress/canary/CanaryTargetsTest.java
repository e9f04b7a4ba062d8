package io.trimus.egress.canary;

import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.events.CanaryRequested;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A canary's targets come from the allowlist the resolver and the proxy hold now. */
class CanaryTargetsTest {
    private static final UUID COMPANY = UUID.randomUUID();
    private final AllowlistCache allowlists = new AllowlistCache();
    private final CanaryTargets targets = new CanaryTargets(allowlists, Set.of(443, 80), "1.1.1.1:443");

    @Test
    void anExactHostBeforeAWildcardAndAPortTheProxyMustRefuseForIt() {
        allowlists.replace(COMPANY, List.of("*.pypi.org", "git.example.com:22", "api.github.com", "api.github.com:25"));
        CanaryRequested request = targets.request(UUID.randomUUID(), COMPANY);

        assertThat(request.allowedHost()).isEqualTo("git.example.com:22");
        assertThat(request.unlistedPort()).isEqualTo(25);
        assertThat(request.ipLiteral()).isEqualTo("1.1.1.1:443");
        assertThat(allowlists.allows(COMPANY, request.unlistedName())).isFalse();
    }

    @Test
    void aPortTheCompanyOpensIsNeverTheUnlistedOne() {
        allowlists.replace(COMPANY, List.of("api.github.com", "api.github.com:25"));
        CanaryRequested request = targets.request(UUID.randomUUID(), COMPANY);

        assertThat(request.allowedHost()).isEqualTo("api.github.com:443");
        assertThat(request.unlistedPort()).isEqualTo(2525);
    }

    @Test
    void aWildcardGivesANameUnderItAndNoListGivesNoAllowedHost() {
        allowlists.replace(COMPANY, List.of("*.pypi.org"));
        assertThat(targets.request(UUID.randomUUID(), COMPANY).allowedHost()).isEqualTo("trimus-canary.pypi.org:443");

        UUID none = UUID.randomUUID();
        CanaryRequested bare = targets.request(UUID.randomUUID(), none);
        assertThat(bare.allowedHost()).isNull();
        assertThat(bare.unlistedPort()).isEqualTo(25);
    }

    @Test
    void theUnlistedNameIsFreshEachTimeAndNeverOneTheCompanyAllows() {
        allowlists.replace(COMPANY, List.of("api.github.com"));
        String first = targets.request(UUID.randomUUID(), COMPANY).unlistedName();
        String second = targets.request(UUID.randomUUID(), COMPANY).unlistedName();
        assertThat(first).isNotEqualTo(second).endsWith(CanaryTargets.UNLISTED_SUFFIX);

        // a company that allows the canaries' own suffix: its canary says so instead of pretending
        allowlists.replace(COMPANY, List.of("*.canary.trimus.invalid"));
        String allowed = targets.request(UUID.randomUUID(), COMPANY).unlistedName();
        assertThat(allowlists.allows(COMPANY, allowed)).isTrue();
    }
}
