#!/usr/bin/perl
# A real SMPP 3.4 client driven line by line: Debian's libnet-smpp-perl (Net::SMPP) binds, then
# reads commands on stdin while it answers every deliver_sm with ESME_ROK and prints it. Each
# event is one line on stdout for the test to read.
#
#   session.pl PORT SYSTEM_ID PASSWORD MODE        MODE: transceiver | receiver | transmitter
#
# stdin:  submit DESTINATION TEXT_HEX RECEIPT    → submit_sm_resp status=… message_id=…
#         query MESSAGE_ID                       → query_sm_resp status=… state=… error_code=…
#         cancel MESSAGE_ID                      → cancel_sm_resp status=…
#         unbind                                 → unbound, then the script ends
# stdout: bound | bind_failed status=… | deliver_sm esm_class=… source=… destination=… receipted=… hex=…
use strict;
use warnings;
use IO::Select;
use Net::SMPP;

$| = 1;
my ($port, $system_id, $password, $mode) = @ARGV;
my %constructors = (
    transceiver => \&Net::SMPP::new_transceiver,
    receiver    => \&Net::SMPP::new_receiver,
    transmitter => \&Net::SMPP::new_transmitter,
);
my ($smpp, $bind) = $constructors{$mode}->(
    'Net::SMPP', '127.0.0.1',
    port => $port,
    system_id => $system_id,
    password => $password,
    smpp_version => 0x34,
);
if (!$smpp || $bind->{status} != 0) {
    printf "bind_failed status=%d\n", $bind ? $bind->{status} : -1;
    exit 0;
}
print "bound\n";

my %pending;    # sequence number → the command whose response it is
my $input = '';  # stdin read so far: sysread, since select cannot see what a buffered read kept
my $select = IO::Select->new(\*STDIN, $smpp);
while (1) {
    for my $ready ($select->can_read()) {
        if ($ready == $smpp) {
            my $pdu = $smpp->read_pdu() or do { print "closed\n"; exit 0 };
            handle_pdu($pdu);
            next;
        }
        sysread(STDIN, $input, 4096, length $input) or exit 0;
        while ($input =~ s/^([^\n]*)\n//) {
            run_command(split / /, $1);
        }
    }
}

sub run_command {
    my ($command, @args) = @_;
    if ($command eq 'submit') {
        my ($destination, $hex, $receipt) = @args;
        my $seq = $smpp->submit_sm(
            async => 1,
            source_addr => 'Tests',
            destination_addr => $destination,
            dest_addr_ton => 1,
            dest_addr_npi => 1,
            registered_delivery => $receipt,
            short_message => pack('H*', $hex),
        );
        $pending{$seq} = 'submit';
    } elsif ($command eq 'query') {
        $pending{$smpp->query_sm(async => 1, message_id => $args[0], source_addr => 'Tests')} = 'query';
    } elsif ($command eq 'cancel') {
        $pending{$smpp->cancel_sm(async => 1, message_id => $args[0], source_addr => 'Tests',
            destination_addr => '')} = 'cancel';
    } elsif ($command eq 'unbind') {
        $smpp->unbind();
        print "unbound\n";
        exit 0;
    }
}

sub handle_pdu {
    my ($pdu) = @_;
    if ($pdu->{cmd} == 0x00000005) {
        $smpp->deliver_sm_resp(seq => $pdu->{seq}, message_id => '');
        my $receipted = defined $pdu->{receipted_message_id} ? $pdu->{receipted_message_id} : '';
        $receipted =~ s/\0+$//;
        printf "deliver_sm esm_class=%d source=%s destination=%s receipted=%s hex=%s\n",
            $pdu->{esm_class}, $pdu->{source_addr}, $pdu->{destination_addr}, $receipted,
            unpack('H*', $pdu->{short_message});
    } elsif ($pdu->{cmd} == 0x00000015) {
        $smpp->enquire_link_resp(seq => $pdu->{seq});
    } elsif ($pdu->{cmd} == 0x00000006) {
        $smpp->unbind_resp(seq => $pdu->{seq});
        print "unbind_received\n";
    } elsif (my $command = delete $pending{$pdu->{seq}}) {
        if ($command eq 'submit') {
            my $id = defined $pdu->{message_id} ? $pdu->{message_id} : '';
            printf "submit_sm_resp status=%d message_id=%s\n", $pdu->{status}, $id;
        } elsif ($command eq 'query') {
            my $state = defined $pdu->{message_state} ? $pdu->{message_state} : -1;
            my $error = defined $pdu->{error_code} ? $pdu->{error_code} : -1;
            printf "query_sm_resp status=%d state=%d error_code=%d\n", $pdu->{status}, $state, $error;
        } else {
            printf "cancel_sm_resp status=%d\n", $pdu->{status};
        }
    }
}
