package io.trimus.admin.client;

import io.trimus.events.auth.Caller;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * run-service as the identity authority: who a credential speaks for, signing in and out, setup links, a company's
 * members and API tokens, operator tokens and accounts. Built by {@link Backends}; every call but sign-in and setup
 * carries the signed-in caller's credential.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface IdentityApi {
    String AUTHORIZATION = RunServiceApi.AUTHORIZATION;

    @GET
    @Path("/me")
    Caller me(@HeaderParam(AUTHORIZATION) String auth);

    /** Signs in; {@code client} is the browser's address, so run-service takes its password check in its turn. */
    @POST
    @Path("/sessions")
    Session signIn(@HeaderParam("X-Forwarded-For") String client, SignIn body);

    @POST
    @Path("/sessions/oidc")
    Session signInThroughProvider(ProviderSignIn body);

    @DELETE
    @Path("/sessions/current")
    void signOut(@HeaderParam(AUTHORIZATION) String auth);

    @POST
    @Path("/setup")
    SetupDone setup(Setup body);

    @GET
    @Path("/companies/{company_id}/members")
    MemberList members(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId);

    @PUT
    @Path("/companies/{company_id}/members/{email}")
    Member putMember(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId,
                     @PathParam("email") String email, RoleBody body);

    @DELETE
    @Path("/companies/{company_id}/members/{email}")
    void removeMember(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId,
                      @PathParam("email") String email);

    @GET
    @Path("/companies/{company_id}/tokens")
    TokenList tokens(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId);

    @POST
    @Path("/companies/{company_id}/tokens")
    CreatedToken createToken(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId,
                             NewToken body);

    @DELETE
    @Path("/companies/{company_id}/tokens/{token_id}")
    void revokeToken(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId,
                     @PathParam("token_id") UUID tokenId);

    @GET
    @Path("/tokens")
    TokenList operatorTokens(@HeaderParam(AUTHORIZATION) String auth);

    @POST
    @Path("/tokens")
    CreatedToken createOperatorToken(@HeaderParam(AUTHORIZATION) String auth, NewToken body);

    @DELETE
    @Path("/tokens/{token_id}")
    void revokeOperatorToken(@HeaderParam(AUTHORIZATION) String auth, @PathParam("token_id") UUID tokenId);

    @GET
    @Path("/operators")
    OperatorList operators(@HeaderParam(AUTHORIZATION) String auth);

    @PUT
    @Path("/operators/{email}")
    Operator putOperator(@HeaderParam(AUTHORIZATION) String auth, @PathParam("email") String email);

    @DELETE
    @Path("/operators/{email}")
    void removeOperator(@HeaderParam(AUTHORIZATION) String auth, @PathParam("email") String email);

    /** Body of POST /api/sessions. */
    record SignIn(String email, String password) {
    }

    /** Body of POST /api/sessions/oidc: the provider's raw ID token, which run-service verifies itself. */
    record ProviderSignIn(String idToken) {
    }

    /** A new session: its credential (the cookie's value), its end and who it speaks for. */
    record Session(String token, Instant expiresAt, Caller caller) {
    }

    /** Body of POST /api/setup: the secret of the setup link and the new password. */
    record Setup(String token, String password) {
    }

    /** Whose password was set. */
    record SetupDone(String email) {
    }

    /** Body of PUT …/members/{email}. */
    record RoleBody(String role) {
    }

    /** A company's members. */
    record MemberList(List<Member> members) {
    }

    /**
     * A member; {@code passwordSet} only for an account the company's own invitation made (null otherwise),
     * {@code setupUrl} only in the answer that made the account.
     */
    record Member(String email, String role, Instant since, Boolean passwordSet, URI setupUrl) {
    }

    /** The operator accounts (operator tokens are listed under /api/tokens). */
    record OperatorList(List<Operator> operators) {
    }

    /**
     * An operator account; {@code setupUrl} only in the answer that made a new account (or one still without a
     * password), {@code passwordSet} only in the list.
     */
    record Operator(UUID userId, String email, boolean passwordSet, URI setupUrl) {
    }

    /** Body of POST …/tokens: {@code role} for company tokens, left out for operator tokens. */
    record NewToken(String name, String role, Instant expiresAt) {
    }

    /** Tokens as lists show them: never their values. */
    record TokenList(List<Token> tokens) {
    }

    /** A token without its value. */
    record Token(UUID id, String name, String role, UUID companyId, String createdBy, Instant createdAt,
                 Instant expiresAt, Instant lastUsedAt, Instant revokedAt, boolean active) {
    }

    /** A token just made: {@code token} is its value, shown this once. */
    record CreatedToken(UUID id, String name, String role, UUID companyId, Instant createdAt, Instant expiresAt,
                        String token) {
    }
}
