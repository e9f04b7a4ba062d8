package io.trimus.egress.tunnelling;

import com.google.common.net.InternetDomainName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The base domain the fast path finds is the one Guava's Public Suffix List gives (its registrable domain), or the
 * last two labels where the list knows no suffix, asked first and again (from the table); and after another name
 * with the same last three labels, never a finer one than the list's.
 */
class BaseDomainsTest {
    private static final List<String> NAMES = List.of(
            "registry.npmjs.org", "files.pythonhosted.org", "a.b.c.example.co.uk", "example.co.uk", "co.uk",
            "x.y.user.github.io", "user.github.io", "github.io", "objects.githubusercontent.com",
            "d111111abcdef8.cloudfront.net", "my-bucket.s3.us-west-2.amazonaws.com",
            "ec2-1-2-3-4.eu-west-1.compute.amazonaws.com", "a.b.c.d.e.f.appspot.com", "www.city.kawasaki.jp",
            "x.y.kawasaki.jp", "3f2a9c.t.example", "deep.deeper.deepest.tunnel.test", "localhost", "com",
            "aaaa.bbbb.cccc.dddd.eeee.internal", "host_with_underscore.example.com", "xn--bcher-kva.example.de",
            "a.b.blogspot.com", "foo.bar.web.app", "mail.google.com", "123.45.67.89");

    @Test
    void theBaseDomainIsThePublicSuffixListsRegistrableDomain() {
        for (String name : NAMES) {
            BaseDomains bases = new BaseDomains();
            for (int pass = 0; pass < 2; pass++) {
                assertThat(bases.of(name)).as(name + " (pass " + pass + ")").isEqualTo(expected(name));
            }
        }
    }

    @Test
    void aRememberedDepthNeverSplitsFinerThanTheList() {
        BaseDomains bases = new BaseDomains();
        // shallow names first: their depths are remembered for "amazonaws.com" and "kawasaki.jp"
        assertThat(bases.of("abc.us-west-2.amazonaws.com")).isEqualTo(expected("abc.us-west-2.amazonaws.com"));
        assertThat(bases.of("www.city.kawasaki.jp")).isEqualTo("city.kawasaki.jp");
        for (String name : NAMES) {
            String exact = expected(name);
            String found = bases.of(name);
            assertThat(exact).as(name).endsWith(found);
            assertThat(exact.equals(found) || exact.endsWith("." + found)).as(name + ": whole labels").isTrue();
        }
    }

    @Test
    void aNameIsItsOwnBaseWhenItHasTwoLabelsOrFewer() {
        BaseDomains bases = new BaseDomains();
        assertThat(bases.start("example.test")).isZero();
        assertThat(bases.start("single")).isZero();
        assertThat(bases.start("a.example.test")).isEqualTo(2);
    }

    /** What Guava says: the registrable domain where the name is under a public suffix, else the last two labels. */
    private static String expected(String name) {
        try {
            InternetDomainName domain = InternetDomainName.from(name);
            if (domain.isUnderPublicSuffix()) {
                return domain.topPrivateDomain().toString();
            }
            if (domain.isPublicSuffix()) {
                return name;
            }
        } catch (IllegalArgumentException notADomain) {
            // the last two labels, as for a name under no listed suffix
        }
        String[] labels = name.split("\\.");
        return labels.length <= 2 ? name : labels[labels.length - 2] + "." + labels[labels.length - 1];
    }
}
