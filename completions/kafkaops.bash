_kafkaops() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="kafkaops"
                ;;
            kafkaops,anomalies)
                cmd="kafkaops__subcmd__anomalies"
                ;;
            kafkaops,broker)
                cmd="kafkaops__subcmd__broker"
                ;;
            kafkaops,completions)
                cmd="kafkaops__subcmd__completions"
                ;;
            kafkaops,config)
                cmd="kafkaops__subcmd__config"
                ;;
            kafkaops,health)
                cmd="kafkaops__subcmd__health"
                ;;
            kafkaops,help)
                cmd="kafkaops__subcmd__help"
                ;;
            kafkaops,hold)
                cmd="kafkaops__subcmd__hold"
                ;;
            kafkaops,journal)
                cmd="kafkaops__subcmd__journal"
                ;;
            kafkaops,operate)
                cmd="kafkaops__subcmd__operate"
                ;;
            kafkaops,quorum)
                cmd="kafkaops__subcmd__quorum"
                ;;
            kafkaops,reassignments)
                cmd="kafkaops__subcmd__reassignments"
                ;;
            kafkaops,rebalance)
                cmd="kafkaops__subcmd__rebalance"
                ;;
            kafkaops,roll)
                cmd="kafkaops__subcmd__roll"
                ;;
            kafkaops,throttles)
                cmd="kafkaops__subcmd__throttles"
                ;;
            kafkaops,topic)
                cmd="kafkaops__subcmd__topic"
                ;;
            kafkaops,upgrade)
                cmd="kafkaops__subcmd__upgrade"
                ;;
            kafkaops__subcmd__anomalies,help)
                cmd="kafkaops__subcmd__anomalies__subcmd__help"
                ;;
            kafkaops__subcmd__anomalies,watch)
                cmd="kafkaops__subcmd__anomalies__subcmd__watch"
                ;;
            kafkaops__subcmd__anomalies__subcmd__help,help)
                cmd="kafkaops__subcmd__anomalies__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__anomalies__subcmd__help,watch)
                cmd="kafkaops__subcmd__anomalies__subcmd__help__subcmd__watch"
                ;;
            kafkaops__subcmd__broker,cordon)
                cmd="kafkaops__subcmd__broker__subcmd__cordon"
                ;;
            kafkaops__subcmd__broker,help)
                cmd="kafkaops__subcmd__broker__subcmd__help"
                ;;
            kafkaops__subcmd__broker,list)
                cmd="kafkaops__subcmd__broker__subcmd__list"
                ;;
            kafkaops__subcmd__broker,uncordon)
                cmd="kafkaops__subcmd__broker__subcmd__uncordon"
                ;;
            kafkaops__subcmd__broker,unregister)
                cmd="kafkaops__subcmd__broker__subcmd__unregister"
                ;;
            kafkaops__subcmd__broker__subcmd__help,cordon)
                cmd="kafkaops__subcmd__broker__subcmd__help__subcmd__cordon"
                ;;
            kafkaops__subcmd__broker__subcmd__help,help)
                cmd="kafkaops__subcmd__broker__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__broker__subcmd__help,list)
                cmd="kafkaops__subcmd__broker__subcmd__help__subcmd__list"
                ;;
            kafkaops__subcmd__broker__subcmd__help,uncordon)
                cmd="kafkaops__subcmd__broker__subcmd__help__subcmd__uncordon"
                ;;
            kafkaops__subcmd__broker__subcmd__help,unregister)
                cmd="kafkaops__subcmd__broker__subcmd__help__subcmd__unregister"
                ;;
            kafkaops__subcmd__config,get-contexts)
                cmd="kafkaops__subcmd__config__subcmd__get__subcmd__contexts"
                ;;
            kafkaops__subcmd__config,help)
                cmd="kafkaops__subcmd__config__subcmd__help"
                ;;
            kafkaops__subcmd__config,use-context)
                cmd="kafkaops__subcmd__config__subcmd__use__subcmd__context"
                ;;
            kafkaops__subcmd__config,view)
                cmd="kafkaops__subcmd__config__subcmd__view"
                ;;
            kafkaops__subcmd__config__subcmd__help,get-contexts)
                cmd="kafkaops__subcmd__config__subcmd__help__subcmd__get__subcmd__contexts"
                ;;
            kafkaops__subcmd__config__subcmd__help,help)
                cmd="kafkaops__subcmd__config__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__config__subcmd__help,use-context)
                cmd="kafkaops__subcmd__config__subcmd__help__subcmd__use__subcmd__context"
                ;;
            kafkaops__subcmd__config__subcmd__help,view)
                cmd="kafkaops__subcmd__config__subcmd__help__subcmd__view"
                ;;
            kafkaops__subcmd__help,anomalies)
                cmd="kafkaops__subcmd__help__subcmd__anomalies"
                ;;
            kafkaops__subcmd__help,broker)
                cmd="kafkaops__subcmd__help__subcmd__broker"
                ;;
            kafkaops__subcmd__help,completions)
                cmd="kafkaops__subcmd__help__subcmd__completions"
                ;;
            kafkaops__subcmd__help,config)
                cmd="kafkaops__subcmd__help__subcmd__config"
                ;;
            kafkaops__subcmd__help,health)
                cmd="kafkaops__subcmd__help__subcmd__health"
                ;;
            kafkaops__subcmd__help,help)
                cmd="kafkaops__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__help,hold)
                cmd="kafkaops__subcmd__help__subcmd__hold"
                ;;
            kafkaops__subcmd__help,journal)
                cmd="kafkaops__subcmd__help__subcmd__journal"
                ;;
            kafkaops__subcmd__help,operate)
                cmd="kafkaops__subcmd__help__subcmd__operate"
                ;;
            kafkaops__subcmd__help,quorum)
                cmd="kafkaops__subcmd__help__subcmd__quorum"
                ;;
            kafkaops__subcmd__help,reassignments)
                cmd="kafkaops__subcmd__help__subcmd__reassignments"
                ;;
            kafkaops__subcmd__help,rebalance)
                cmd="kafkaops__subcmd__help__subcmd__rebalance"
                ;;
            kafkaops__subcmd__help,roll)
                cmd="kafkaops__subcmd__help__subcmd__roll"
                ;;
            kafkaops__subcmd__help,throttles)
                cmd="kafkaops__subcmd__help__subcmd__throttles"
                ;;
            kafkaops__subcmd__help,topic)
                cmd="kafkaops__subcmd__help__subcmd__topic"
                ;;
            kafkaops__subcmd__help,upgrade)
                cmd="kafkaops__subcmd__help__subcmd__upgrade"
                ;;
            kafkaops__subcmd__help__subcmd__anomalies,watch)
                cmd="kafkaops__subcmd__help__subcmd__anomalies__subcmd__watch"
                ;;
            kafkaops__subcmd__help__subcmd__broker,cordon)
                cmd="kafkaops__subcmd__help__subcmd__broker__subcmd__cordon"
                ;;
            kafkaops__subcmd__help__subcmd__broker,list)
                cmd="kafkaops__subcmd__help__subcmd__broker__subcmd__list"
                ;;
            kafkaops__subcmd__help__subcmd__broker,uncordon)
                cmd="kafkaops__subcmd__help__subcmd__broker__subcmd__uncordon"
                ;;
            kafkaops__subcmd__help__subcmd__broker,unregister)
                cmd="kafkaops__subcmd__help__subcmd__broker__subcmd__unregister"
                ;;
            kafkaops__subcmd__help__subcmd__config,get-contexts)
                cmd="kafkaops__subcmd__help__subcmd__config__subcmd__get__subcmd__contexts"
                ;;
            kafkaops__subcmd__help__subcmd__config,use-context)
                cmd="kafkaops__subcmd__help__subcmd__config__subcmd__use__subcmd__context"
                ;;
            kafkaops__subcmd__help__subcmd__config,view)
                cmd="kafkaops__subcmd__help__subcmd__config__subcmd__view"
                ;;
            kafkaops__subcmd__help__subcmd__hold,add)
                cmd="kafkaops__subcmd__help__subcmd__hold__subcmd__add"
                ;;
            kafkaops__subcmd__help__subcmd__hold,list)
                cmd="kafkaops__subcmd__help__subcmd__hold__subcmd__list"
                ;;
            kafkaops__subcmd__help__subcmd__hold,remove)
                cmd="kafkaops__subcmd__help__subcmd__hold__subcmd__remove"
                ;;
            kafkaops__subcmd__help__subcmd__journal,bundle)
                cmd="kafkaops__subcmd__help__subcmd__journal__subcmd__bundle"
                ;;
            kafkaops__subcmd__help__subcmd__journal,list)
                cmd="kafkaops__subcmd__help__subcmd__journal__subcmd__list"
                ;;
            kafkaops__subcmd__help__subcmd__journal,show)
                cmd="kafkaops__subcmd__help__subcmd__journal__subcmd__show"
                ;;
            kafkaops__subcmd__help__subcmd__quorum,add)
                cmd="kafkaops__subcmd__help__subcmd__quorum__subcmd__add"
                ;;
            kafkaops__subcmd__help__subcmd__quorum,migrate)
                cmd="kafkaops__subcmd__help__subcmd__quorum__subcmd__migrate"
                ;;
            kafkaops__subcmd__help__subcmd__quorum,remove)
                cmd="kafkaops__subcmd__help__subcmd__quorum__subcmd__remove"
                ;;
            kafkaops__subcmd__help__subcmd__quorum,status)
                cmd="kafkaops__subcmd__help__subcmd__quorum__subcmd__status"
                ;;
            kafkaops__subcmd__help__subcmd__reassignments,cancel)
                cmd="kafkaops__subcmd__help__subcmd__reassignments__subcmd__cancel"
                ;;
            kafkaops__subcmd__help__subcmd__reassignments,list)
                cmd="kafkaops__subcmd__help__subcmd__reassignments__subcmd__list"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,add)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__add"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,demote)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__demote"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,full)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__full"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,imbalance)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__imbalance"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,pace)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__pace"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,remove)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__remove"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,remove-disks)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__remove__subcmd__disks"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,review)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__review"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,status)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__status"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance,stop)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__stop"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance__subcmd__review,approve)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__review__subcmd__approve"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance__subcmd__review,discard)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__review__subcmd__discard"
                ;;
            kafkaops__subcmd__help__subcmd__rebalance__subcmd__review,list)
                cmd="kafkaops__subcmd__help__subcmd__rebalance__subcmd__review__subcmd__list"
                ;;
            kafkaops__subcmd__help__subcmd__throttles,clear)
                cmd="kafkaops__subcmd__help__subcmd__throttles__subcmd__clear"
                ;;
            kafkaops__subcmd__help__subcmd__throttles,list)
                cmd="kafkaops__subcmd__help__subcmd__throttles__subcmd__list"
                ;;
            kafkaops__subcmd__help__subcmd__topic,set-rf)
                cmd="kafkaops__subcmd__help__subcmd__topic__subcmd__set__subcmd__rf"
                ;;
            kafkaops__subcmd__help__subcmd__topic,status)
                cmd="kafkaops__subcmd__help__subcmd__topic__subcmd__status"
                ;;
            kafkaops__subcmd__hold,add)
                cmd="kafkaops__subcmd__hold__subcmd__add"
                ;;
            kafkaops__subcmd__hold,help)
                cmd="kafkaops__subcmd__hold__subcmd__help"
                ;;
            kafkaops__subcmd__hold,list)
                cmd="kafkaops__subcmd__hold__subcmd__list"
                ;;
            kafkaops__subcmd__hold,remove)
                cmd="kafkaops__subcmd__hold__subcmd__remove"
                ;;
            kafkaops__subcmd__hold__subcmd__help,add)
                cmd="kafkaops__subcmd__hold__subcmd__help__subcmd__add"
                ;;
            kafkaops__subcmd__hold__subcmd__help,help)
                cmd="kafkaops__subcmd__hold__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__hold__subcmd__help,list)
                cmd="kafkaops__subcmd__hold__subcmd__help__subcmd__list"
                ;;
            kafkaops__subcmd__hold__subcmd__help,remove)
                cmd="kafkaops__subcmd__hold__subcmd__help__subcmd__remove"
                ;;
            kafkaops__subcmd__journal,bundle)
                cmd="kafkaops__subcmd__journal__subcmd__bundle"
                ;;
            kafkaops__subcmd__journal,help)
                cmd="kafkaops__subcmd__journal__subcmd__help"
                ;;
            kafkaops__subcmd__journal,list)
                cmd="kafkaops__subcmd__journal__subcmd__list"
                ;;
            kafkaops__subcmd__journal,show)
                cmd="kafkaops__subcmd__journal__subcmd__show"
                ;;
            kafkaops__subcmd__journal__subcmd__help,bundle)
                cmd="kafkaops__subcmd__journal__subcmd__help__subcmd__bundle"
                ;;
            kafkaops__subcmd__journal__subcmd__help,help)
                cmd="kafkaops__subcmd__journal__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__journal__subcmd__help,list)
                cmd="kafkaops__subcmd__journal__subcmd__help__subcmd__list"
                ;;
            kafkaops__subcmd__journal__subcmd__help,show)
                cmd="kafkaops__subcmd__journal__subcmd__help__subcmd__show"
                ;;
            kafkaops__subcmd__quorum,add)
                cmd="kafkaops__subcmd__quorum__subcmd__add"
                ;;
            kafkaops__subcmd__quorum,help)
                cmd="kafkaops__subcmd__quorum__subcmd__help"
                ;;
            kafkaops__subcmd__quorum,migrate)
                cmd="kafkaops__subcmd__quorum__subcmd__migrate"
                ;;
            kafkaops__subcmd__quorum,remove)
                cmd="kafkaops__subcmd__quorum__subcmd__remove"
                ;;
            kafkaops__subcmd__quorum,status)
                cmd="kafkaops__subcmd__quorum__subcmd__status"
                ;;
            kafkaops__subcmd__quorum__subcmd__help,add)
                cmd="kafkaops__subcmd__quorum__subcmd__help__subcmd__add"
                ;;
            kafkaops__subcmd__quorum__subcmd__help,help)
                cmd="kafkaops__subcmd__quorum__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__quorum__subcmd__help,migrate)
                cmd="kafkaops__subcmd__quorum__subcmd__help__subcmd__migrate"
                ;;
            kafkaops__subcmd__quorum__subcmd__help,remove)
                cmd="kafkaops__subcmd__quorum__subcmd__help__subcmd__remove"
                ;;
            kafkaops__subcmd__quorum__subcmd__help,status)
                cmd="kafkaops__subcmd__quorum__subcmd__help__subcmd__status"
                ;;
            kafkaops__subcmd__reassignments,cancel)
                cmd="kafkaops__subcmd__reassignments__subcmd__cancel"
                ;;
            kafkaops__subcmd__reassignments,help)
                cmd="kafkaops__subcmd__reassignments__subcmd__help"
                ;;
            kafkaops__subcmd__reassignments,list)
                cmd="kafkaops__subcmd__reassignments__subcmd__list"
                ;;
            kafkaops__subcmd__reassignments__subcmd__help,cancel)
                cmd="kafkaops__subcmd__reassignments__subcmd__help__subcmd__cancel"
                ;;
            kafkaops__subcmd__reassignments__subcmd__help,help)
                cmd="kafkaops__subcmd__reassignments__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__reassignments__subcmd__help,list)
                cmd="kafkaops__subcmd__reassignments__subcmd__help__subcmd__list"
                ;;
            kafkaops__subcmd__rebalance,add)
                cmd="kafkaops__subcmd__rebalance__subcmd__add"
                ;;
            kafkaops__subcmd__rebalance,demote)
                cmd="kafkaops__subcmd__rebalance__subcmd__demote"
                ;;
            kafkaops__subcmd__rebalance,full)
                cmd="kafkaops__subcmd__rebalance__subcmd__full"
                ;;
            kafkaops__subcmd__rebalance,help)
                cmd="kafkaops__subcmd__rebalance__subcmd__help"
                ;;
            kafkaops__subcmd__rebalance,imbalance)
                cmd="kafkaops__subcmd__rebalance__subcmd__imbalance"
                ;;
            kafkaops__subcmd__rebalance,pace)
                cmd="kafkaops__subcmd__rebalance__subcmd__pace"
                ;;
            kafkaops__subcmd__rebalance,remove)
                cmd="kafkaops__subcmd__rebalance__subcmd__remove"
                ;;
            kafkaops__subcmd__rebalance,remove-disks)
                cmd="kafkaops__subcmd__rebalance__subcmd__remove__subcmd__disks"
                ;;
            kafkaops__subcmd__rebalance,review)
                cmd="kafkaops__subcmd__rebalance__subcmd__review"
                ;;
            kafkaops__subcmd__rebalance,status)
                cmd="kafkaops__subcmd__rebalance__subcmd__status"
                ;;
            kafkaops__subcmd__rebalance,stop)
                cmd="kafkaops__subcmd__rebalance__subcmd__stop"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,add)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__add"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,demote)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__demote"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,full)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__full"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,help)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,imbalance)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__imbalance"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,pace)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__pace"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,remove)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__remove"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,remove-disks)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__remove__subcmd__disks"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,review)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__review"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,status)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__status"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help,stop)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__stop"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help__subcmd__review,approve)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__review__subcmd__approve"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help__subcmd__review,discard)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__review__subcmd__discard"
                ;;
            kafkaops__subcmd__rebalance__subcmd__help__subcmd__review,list)
                cmd="kafkaops__subcmd__rebalance__subcmd__help__subcmd__review__subcmd__list"
                ;;
            kafkaops__subcmd__rebalance__subcmd__review,approve)
                cmd="kafkaops__subcmd__rebalance__subcmd__review__subcmd__approve"
                ;;
            kafkaops__subcmd__rebalance__subcmd__review,discard)
                cmd="kafkaops__subcmd__rebalance__subcmd__review__subcmd__discard"
                ;;
            kafkaops__subcmd__rebalance__subcmd__review,help)
                cmd="kafkaops__subcmd__rebalance__subcmd__review__subcmd__help"
                ;;
            kafkaops__subcmd__rebalance__subcmd__review,list)
                cmd="kafkaops__subcmd__rebalance__subcmd__review__subcmd__list"
                ;;
            kafkaops__subcmd__rebalance__subcmd__review__subcmd__help,approve)
                cmd="kafkaops__subcmd__rebalance__subcmd__review__subcmd__help__subcmd__approve"
                ;;
            kafkaops__subcmd__rebalance__subcmd__review__subcmd__help,discard)
                cmd="kafkaops__subcmd__rebalance__subcmd__review__subcmd__help__subcmd__discard"
                ;;
            kafkaops__subcmd__rebalance__subcmd__review__subcmd__help,help)
                cmd="kafkaops__subcmd__rebalance__subcmd__review__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__rebalance__subcmd__review__subcmd__help,list)
                cmd="kafkaops__subcmd__rebalance__subcmd__review__subcmd__help__subcmd__list"
                ;;
            kafkaops__subcmd__throttles,clear)
                cmd="kafkaops__subcmd__throttles__subcmd__clear"
                ;;
            kafkaops__subcmd__throttles,help)
                cmd="kafkaops__subcmd__throttles__subcmd__help"
                ;;
            kafkaops__subcmd__throttles,list)
                cmd="kafkaops__subcmd__throttles__subcmd__list"
                ;;
            kafkaops__subcmd__throttles__subcmd__help,clear)
                cmd="kafkaops__subcmd__throttles__subcmd__help__subcmd__clear"
                ;;
            kafkaops__subcmd__throttles__subcmd__help,help)
                cmd="kafkaops__subcmd__throttles__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__throttles__subcmd__help,list)
                cmd="kafkaops__subcmd__throttles__subcmd__help__subcmd__list"
                ;;
            kafkaops__subcmd__topic,help)
                cmd="kafkaops__subcmd__topic__subcmd__help"
                ;;
            kafkaops__subcmd__topic,set-rf)
                cmd="kafkaops__subcmd__topic__subcmd__set__subcmd__rf"
                ;;
            kafkaops__subcmd__topic,status)
                cmd="kafkaops__subcmd__topic__subcmd__status"
                ;;
            kafkaops__subcmd__topic__subcmd__help,help)
                cmd="kafkaops__subcmd__topic__subcmd__help__subcmd__help"
                ;;
            kafkaops__subcmd__topic__subcmd__help,set-rf)
                cmd="kafkaops__subcmd__topic__subcmd__help__subcmd__set__subcmd__rf"
                ;;
            kafkaops__subcmd__topic__subcmd__help,status)
                cmd="kafkaops__subcmd__topic__subcmd__help__subcmd__status"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        kafkaops)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__anomalies)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version watch help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__anomalies__subcmd__help)
            opts="watch help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__anomalies__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__anomalies__subcmd__help__subcmd__watch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__anomalies__subcmd__watch)
            opts="-o -v -q -y -b -X -n -h -V --interval --once --type --status --exit-on --max-backoff --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type)
                    COMPREPLY=($(compgen -W "goal-violation broker-failure disk-failure metric-anomaly topic-anomaly maintenance-event" -- "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exit-on)
                    COMPREPLY=($(compgen -W "goal-violation broker-failure disk-failure metric-anomaly topic-anomaly maintenance-event" -- "${cur}"))
                    return 0
                    ;;
                --max-backoff)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version cordon uncordon list unregister help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__cordon)
            opts="-o -v -q -y -b -X -n -h -V --brokers --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --brokers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__help)
            opts="cordon uncordon list unregister help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__help__subcmd__cordon)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__help__subcmd__uncordon)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__help__subcmd__unregister)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__list)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__uncordon)
            opts="-o -v -q -y -b -X -n -h -V --brokers --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --brokers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__broker__subcmd__unregister)
            opts="-o -v -q -y -b -X -n -h -V --brokers --execute --wait --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --brokers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__completions)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version view get-contexts use-context help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config__subcmd__get__subcmd__contexts)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config__subcmd__help)
            opts="view get-contexts use-context help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config__subcmd__help__subcmd__get__subcmd__contexts)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config__subcmd__help__subcmd__use__subcmd__context)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config__subcmd__help__subcmd__view)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config__subcmd__use__subcmd__context)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__config__subcmd__view)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__health)
            opts="-o -v -q -y -b -X -n -h -V --watch --exit-when-healthy --timeout --interval --stall-after --state-dir --ignore --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stall-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ignore)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help)
            opts="rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__anomalies)
            opts="watch"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__anomalies__subcmd__watch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__broker)
            opts="cordon uncordon list unregister"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__broker__subcmd__cordon)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__broker__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__broker__subcmd__uncordon)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__broker__subcmd__unregister)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__config)
            opts="view get-contexts use-context"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__config__subcmd__get__subcmd__contexts)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__config__subcmd__use__subcmd__context)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__config__subcmd__view)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__health)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__hold)
            opts="add list remove"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__hold__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__hold__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__hold__subcmd__remove)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__journal)
            opts="list show bundle"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__journal__subcmd__bundle)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__journal__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__journal__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__operate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__quorum)
            opts="status add remove migrate"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__quorum__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__quorum__subcmd__migrate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__quorum__subcmd__remove)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__quorum__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__reassignments)
            opts="list cancel"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__reassignments__subcmd__cancel)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__reassignments__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance)
            opts="add remove full demote remove-disks imbalance status stop pace review"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__demote)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__full)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__imbalance)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__pace)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__remove)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__remove__subcmd__disks)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__review)
            opts="list approve discard"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__review__subcmd__approve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__review__subcmd__discard)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__review__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__rebalance__subcmd__stop)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__roll)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__throttles)
            opts="list clear"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__throttles__subcmd__clear)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__throttles__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__topic)
            opts="set-rf status"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__topic__subcmd__set__subcmd__rf)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__topic__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__help__subcmd__upgrade)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version add list remove help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold__subcmd__add)
            opts="-o -v -q -y -b -X -n -h -V --nodes --reason --expires --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold__subcmd__help)
            opts="add list remove help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold__subcmd__help__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold__subcmd__help__subcmd__remove)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold__subcmd__list)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__hold__subcmd__remove)
            opts="-o -v -q -y -b -X -n -h -V --nodes --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version list show bundle help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal__subcmd__bundle)
            opts="-o -v -q -y -b -X -n -h -V --output-file --health-timeout --state-dir --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --health-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal__subcmd__help)
            opts="list show bundle help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal__subcmd__help__subcmd__bundle)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal__subcmd__list)
            opts="-o -v -q -y -b -X -n -h -V --state-dir --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__journal__subcmd__show)
            opts="-o -v -q -y -b -X -n -h -V --state-dir --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__operate)
            opts="-o -v -q -y -b -X -n -h -V --policy --resync --dry-run --once --state-dir --state-configmap --lease --lease-duration --listen --log-format --restart-command --stop-command --start-command --pod-selector --node-id-label --action-timeout --stall-after --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --resync)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-configmap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lease)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lease-duration)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --restart-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stop-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --start-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pod-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-id-label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --action-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stall-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version status add remove migrate help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__add)
            opts="-o -v -q -y -b -X -n -h -V --controller --caught-up-within --max-lag-records --max-fetch-age --pod-selector --node-id-label --wait --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --controller)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --caught-up-within)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-lag-records)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-fetch-age)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pod-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-id-label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__help)
            opts="status add remove migrate help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__help__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__help__subcmd__migrate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__help__subcmd__remove)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__migrate)
            opts="-o -v -q -y -b -X -n -h -V --caught-up-within --max-lag-records --max-fetch-age --pod-selector --node-id-label --wait --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --caught-up-within)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-lag-records)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-fetch-age)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pod-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-id-label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__remove)
            opts="-o -v -q -y -b -X -n -h -V --controller --caught-up-within --max-lag-records --max-fetch-age --pod-selector --node-id-label --wait --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --controller)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --caught-up-within)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-lag-records)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-fetch-age)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pod-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-id-label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__quorum__subcmd__status)
            opts="-o -v -q -y -b -X -n -h -V --caught-up-within --max-lag-records --max-fetch-age --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --caught-up-within)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-lag-records)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-fetch-age)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__reassignments)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version list cancel help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__reassignments__subcmd__cancel)
            opts="-o -v -q -y -b -X -n -h -V --all --execute --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__reassignments__subcmd__help)
            opts="list cancel help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__reassignments__subcmd__help__subcmd__cancel)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__reassignments__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__reassignments__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__reassignments__subcmd__list)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version add remove full demote remove-disks imbalance status stop pace review help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__add)
            opts="-o -v -q -y -b -X -n -h -V --brokers --goals --skip-hard-goal-check --excluded-topics --replication-throttle --concurrent-partition-movements-per-broker --concurrent-leader-movements --max-partition-movements-in-cluster --replica-movement-strategies --exclude-recently-demoted-brokers --cc-param --show-internal --execute --max-drift --max-data-mb --approved-plan --review-id --no-wait --timeout --follow-timeout --reason --wait-for-ready --poll-interval --wait-for-reassignments --force --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --brokers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --goals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --excluded-topics)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-throttle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-partition-movements-per-broker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-leader-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-partition-movements-in-cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replica-movement-strategies)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cc-param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drift)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-data-mb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approved-plan)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --review-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --follow-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-ready)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-reassignments)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__demote)
            opts="-o -v -q -y -b -X -n -h -V --brokers --goals --skip-hard-goal-check --excluded-topics --replication-throttle --concurrent-partition-movements-per-broker --concurrent-leader-movements --max-partition-movements-in-cluster --replica-movement-strategies --exclude-recently-demoted-brokers --cc-param --show-internal --execute --max-drift --max-data-mb --approved-plan --review-id --no-wait --timeout --follow-timeout --reason --wait-for-ready --poll-interval --wait-for-reassignments --force --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --brokers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --goals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --excluded-topics)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-throttle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-partition-movements-per-broker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-leader-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-partition-movements-in-cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replica-movement-strategies)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cc-param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drift)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-data-mb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approved-plan)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --review-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --follow-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-ready)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-reassignments)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__full)
            opts="-o -v -q -y -b -X -n -h -V --destination-brokers --rebalance-disk --concurrent-intra-broker-partition-movements --goals --skip-hard-goal-check --excluded-topics --replication-throttle --concurrent-partition-movements-per-broker --concurrent-leader-movements --max-partition-movements-in-cluster --replica-movement-strategies --exclude-recently-demoted-brokers --cc-param --show-internal --execute --max-drift --max-data-mb --approved-plan --review-id --no-wait --timeout --follow-timeout --reason --wait-for-ready --poll-interval --wait-for-reassignments --force --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --destination-brokers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-intra-broker-partition-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --goals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --excluded-topics)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-throttle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-partition-movements-per-broker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-leader-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-partition-movements-in-cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replica-movement-strategies)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cc-param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drift)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-data-mb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approved-plan)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --review-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --follow-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-ready)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-reassignments)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help)
            opts="add remove full demote remove-disks imbalance status stop pace review help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__demote)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__full)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__imbalance)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__pace)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__remove)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__remove__subcmd__disks)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__review)
            opts="list approve discard"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__review__subcmd__approve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__review__subcmd__discard)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__review__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__help__subcmd__stop)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__imbalance)
            opts="-o -v -q -y -b -X -n -h -V --template --state-dir --watch --interval --goals --skip-hard-goal-check --excluded-topics --replication-throttle --concurrent-partition-movements-per-broker --concurrent-leader-movements --max-partition-movements-in-cluster --replica-movement-strategies --exclude-recently-demoted-brokers --cc-param --show-internal --execute --max-drift --max-data-mb --approved-plan --review-id --no-wait --timeout --follow-timeout --reason --wait-for-ready --poll-interval --wait-for-reassignments --force --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --goals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --excluded-topics)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-throttle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-partition-movements-per-broker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-leader-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-partition-movements-in-cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replica-movement-strategies)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cc-param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drift)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-data-mb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approved-plan)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --review-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --follow-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-ready)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-reassignments)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__pace)
            opts="-o -v -q -y -b -X -n -h -V --concurrent-partition-movements-per-broker --concurrent-leader-movements --replication-throttle --once --max-drift --max-data-mb --wait --reason --timeout --poll-interval --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --concurrent-partition-movements-per-broker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-leader-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-throttle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drift)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-data-mb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__remove)
            opts="-o -v -q -y -b -X -n -h -V --brokers --destination-brokers --goals --skip-hard-goal-check --excluded-topics --replication-throttle --concurrent-partition-movements-per-broker --concurrent-leader-movements --max-partition-movements-in-cluster --replica-movement-strategies --exclude-recently-demoted-brokers --cc-param --show-internal --execute --max-drift --max-data-mb --approved-plan --review-id --no-wait --timeout --follow-timeout --reason --wait-for-ready --poll-interval --wait-for-reassignments --force --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --brokers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --destination-brokers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --goals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --excluded-topics)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-throttle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-partition-movements-per-broker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-leader-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-partition-movements-in-cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replica-movement-strategies)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cc-param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drift)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-data-mb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approved-plan)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --review-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --follow-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-ready)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-reassignments)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__remove__subcmd__disks)
            opts="-o -v -q -y -b -X -n -h -V --brokers-and-logdirs --goals --skip-hard-goal-check --excluded-topics --replication-throttle --concurrent-partition-movements-per-broker --concurrent-leader-movements --max-partition-movements-in-cluster --replica-movement-strategies --exclude-recently-demoted-brokers --cc-param --show-internal --execute --max-drift --max-data-mb --approved-plan --review-id --no-wait --timeout --follow-timeout --reason --wait-for-ready --poll-interval --wait-for-reassignments --force --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --brokers-and-logdirs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --goals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --excluded-topics)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-throttle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-partition-movements-per-broker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-leader-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-partition-movements-in-cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replica-movement-strategies)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cc-param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drift)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-data-mb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approved-plan)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --review-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --follow-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-ready)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-reassignments)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version list approve discard help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review__subcmd__approve)
            opts="-o -v -q -y -b -X -n -h -V --reason --timeout --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review__subcmd__discard)
            opts="-o -v -q -y -b -X -n -h -V --reason --timeout --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review__subcmd__help)
            opts="list approve discard help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review__subcmd__help__subcmd__approve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review__subcmd__help__subcmd__discard)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__review__subcmd__list)
            opts="-o -v -q -y -b -X -n -h -V --ids --timeout --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__status)
            opts="-o -v -q -y -b -X -n -h -V --timeout --task --follow --follow-timeout --poll-interval --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --task)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --follow-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__rebalance__subcmd__stop)
            opts="-o -v -q -y -b -X -n -h -V --timeout --reason --poll-interval --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__roll)
            opts="-o -v -q -y -b -X -n -h -V --all --nodes --role --desired-config --set --max-batch-size --post-restart-timeout --post-reconfigure-timeout --max-restart-attempts --max-reconfig-attempts --include-unhealthy --dry-run --force --no-preferred-leader-election --restart-command --stop-command --start-command --command-timeout --poll-interval --blocked-timeout --state-dir --discard-state --pod-selector --node-id-label --strict --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --role)
                    COMPREPLY=($(compgen -W "broker controller" -- "${cur}"))
                    return 0
                    ;;
                --desired-config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-batch-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --post-restart-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --post-reconfigure-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-restart-attempts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-reconfig-attempts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --restart-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stop-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --start-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --command-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocked-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pod-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-id-label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__throttles)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version list clear help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__throttles__subcmd__clear)
            opts="-o -v -q -y -b -X -n -h -V --execute --force --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__throttles__subcmd__help)
            opts="list clear help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__throttles__subcmd__help__subcmd__clear)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__throttles__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__throttles__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__throttles__subcmd__list)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__topic)
            opts="-o -v -q -y -b -X -n -h -V --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version set-rf status help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__topic__subcmd__help)
            opts="set-rf status help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__topic__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__topic__subcmd__help__subcmd__set__subcmd__rf)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__topic__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__topic__subcmd__set__subcmd__rf)
            opts="-r -o -v -q -y -b -X -n -h -V --topics --replication-factor --from-file --status --execute --no-wait --allow-below-min-isr --state-dir --replication-throttle --concurrent-partition-movements-per-broker --concurrent-leader-movements --reason --timeout --wait-for-ready --poll-interval --wait-for-reassignments --force --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --topics)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-factor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -r)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replication-throttle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-partition-movements-per-broker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-leader-movements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-ready)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-for-reassignments)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__topic__subcmd__status)
            opts="-o -v -q -y -b -X -n -h -V --state-dir --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        kafkaops__subcmd__upgrade)
            opts="-o -v -q -y -b -X -n -h -V --finalize --feature --wait --to --max-batch-size --post-restart-timeout --post-reconfigure-timeout --max-restart-attempts --max-reconfig-attempts --include-unhealthy --dry-run --force --no-preferred-leader-election --restart-command --stop-command --start-command --command-timeout --poll-interval --blocked-timeout --state-dir --discard-state --pod-selector --node-id-label --strict --config --context --output --verbose --quiet --color --yes --bootstrap-servers --kafka-property --cruise-control-url --cruise-control-user --cruise-control-password-file --cruise-control-ca-file --request-timeout --strimzi --namespace --kube-context --kubeconfig --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --feature)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-batch-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --post-restart-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --post-reconfigure-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-restart-attempts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-reconfig-attempts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --restart-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stop-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --start-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --command-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocked-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pod-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-id-label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide json jsonl yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kafka-property)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-password-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cruise-control-ca-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --strimzi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _kafkaops -o nosort -o bashdefault -o default kafkaops
else
    complete -F _kafkaops -o bashdefault -o default kafkaops
fi
